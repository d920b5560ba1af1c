import type { DomainEvent, EventType } from '../../domain/events.js';
import type { Identifier } from '../../domain/identifier.js';
import type { Clock } from '../ports/clock.js';
import type { Channel, MessageSender, OutgoingMessage } from '../ports/message-sender.js';
import type { Subscriber } from '../ports/outbox.js';

const channelOf = (identifier: Identifier): Channel => (identifier.kind === 'phone' ? 'sms' : 'email');

/** The message an event sends, if any. */
export const messageFor = (event: DomainEvent): OutgoingMessage | undefined => {
  switch (event._tag) {
    case 'SignInCodeIssued':
    case 'VerificationCodeIssued':
      return {
        channel: channelOf(event.identifier),
        to: event.identifier.value,
        purpose: 'CODE',
        text: `Your verification code is ${event.code}. It expires in 10 minutes. Do not share it.`,
      };
    case 'MemberInvited':
      return {
        channel: channelOf(event.identifier),
        to: event.identifier.value,
        purpose: 'INVITATION',
        text: `${event.businessName} has invited you to join their team on BizOps. Sign in with this ${event.identifier.kind === 'phone' ? 'phone number' : 'e-mail address'} to accept.`,
      };
    default:
      return undefined;
  }
};

export const MESSAGE_EVENTS = ['SignInCodeIssued', 'VerificationCodeIssued', 'MemberInvited'] as const satisfies readonly EventType[];

/**
 * Sends people the codes and invitations the events ask for. A code that has expired while its
 * message waited for a retry is not sent: it could only fail, and a newer one may be on its way.
 */
export const sendMessages = (deps: { readonly messages: MessageSender; readonly clock: Clock }): Subscriber => ({
  name: 'messages',
  handles: MESSAGE_EVENTS,
  async handle(event) {
    if ('expiresAt' in event && new Date(event.expiresAt) <= deps.clock.now()) return;
    const message = messageFor(event);
    if (message) await deps.messages.send(message);
  },
});
