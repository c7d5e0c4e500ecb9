/** Outgoing e-mail and SMS, with a development outbox. */
export { createMessagingService, type MessagingOptions, type MessagingService, type OutgoingMessage } from './service';
