import { emailIdentifier, phoneIdentifier, type Identifier } from '../../../domain/identifier.js';
import type { E164Phone } from '../../../domain/phone.js';
import { email, phone } from '../codecs.js';
import { problem } from '../problem.js';

/** The identifier fields of every auth request: exactly one of them. */
export const identifierFields = { phone, email };

export const identifierOf = (body: { phone?: E164Phone | undefined; email?: string | undefined }): Identifier => {
  if ((body.phone === undefined) === (body.email === undefined)) {
    const message = 'give exactly one of phone or email';
    throw problem('VALIDATION_FAILED', 'Give exactly one of phone or email.', {
      errors: [
        { field: 'phone', message },
        { field: 'email', message },
      ],
    });
  }
  return body.phone !== undefined ? phoneIdentifier(body.phone) : emailIdentifier(body.email!);
};

export const identifierJson = (id: Identifier) => ({
  phone: id.kind === 'phone' ? id.value : null,
  email: id.kind === 'email' ? id.value : null,
});
