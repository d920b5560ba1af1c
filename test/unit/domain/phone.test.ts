import { expect } from 'chai';
import { maskPhone, normalisePhone } from '../../../domain/phone.js';

describe('phone numbers', () => {
  it('normalise Nigerian local and international forms to E.164', () => {
    expect(normalisePhone('08031234567')).to.equal('+2348031234567');
    expect(normalisePhone('+2348031234567')).to.equal('+2348031234567');
    expect(normalisePhone('+234 803 123 4567')).to.equal('+2348031234567');
    expect(normalisePhone('+447911123456')).to.equal('+447911123456');
  });

  it('refuse garbage, short and impossible numbers', () => {
    for (const bad of ['', 'abc', '123', '0803123456', '+2340000000000', '08031234567; drop table', '+'.padEnd(40, '1')]) {
      expect(normalisePhone(bad), bad).to.equal(undefined);
    }
  });

  it('mask all but the country code and last 3 digits for logs', () => {
    expect(maskPhone('+2348031234567')).to.equal('+234*******567');
  });
});
