import { expect } from 'chai';
import { namesFromGoogle } from '../../../application/auth/google-sign-in.js';

describe('namesFromGoogle: a new user’s names from a Google ID token', () => {
  const base = { subject: '1', email: 'chinedu.okeke@gmail.com', emailVerified: true };

  it('takes the given and family names first', () => {
    expect(namesFromGoogle({ ...base, givenName: ' Ada ', familyName: 'Okafor', name: 'Someone Else' })).to.deep.equal({ firstName: 'Ada', lastName: 'Okafor' });
  });

  it('else splits the full name at the first space', () => {
    expect(namesFromGoogle({ ...base, name: 'Chinedu  Okeke Jr' })).to.deep.equal({ firstName: 'Chinedu', lastName: 'Okeke Jr' });
    expect(namesFromGoogle({ ...base, name: 'Madonna' })).to.deep.equal({ firstName: 'Madonna', lastName: '' });
  });

  it('else uses the e-mail’s local part; names are cut to 100 characters and lose NULs', () => {
    expect(namesFromGoogle(base)).to.deep.equal({ firstName: 'chinedu.okeke', lastName: '' });
    const long = namesFromGoogle({ ...base, givenName: `A\u0000${'b'.repeat(200)}` });
    expect(long.firstName).to.equal(`A${'b'.repeat(99)}`);
  });
});
