/**
 * The mail and SMS sender: every message is recorded in the outbox, then delivered by SMTP when
 * SMTP_URL is configured. SMS has no gateway configured here, so SMS stay in the outbox (the
 * development and test delivery); a gateway plugs in as another `deliver` implementation.
 */
import { desc, eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Database } from '../../db/client';
import { outboxMessages } from './tables';

export interface OutgoingMessage {
  siteId: string;
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  text: string;
}

export interface MessagingOptions {
  smtpUrl?: string;
  mailFrom?: string;
}

export function createMessagingService(db: Database, options: MessagingOptions = {}) {
  const transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : undefined;

  return {
    async send(message: OutgoingMessage): Promise<void> {
      const [row] = await db
        .insert(outboxMessages)
        .values({
          siteId: message.siteId,
          channel: message.channel,
          recipient: message.to,
          subject: message.subject,
          body: message.text,
        })
        .returning({ id: outboxMessages.id });
      if (!transport || message.channel !== 'email' || !row) return;
      try {
        await transport.sendMail({ from: options.mailFrom, to: message.to, subject: message.subject, text: message.text });
        await db.update(outboxMessages).set({ deliveredAt: new Date() }).where(eq(outboxMessages.id, row.id));
      } catch (error) {
        await db
          .update(outboxMessages)
          .set({ error: String(error).slice(0, 500) })
          .where(eq(outboxMessages.id, row.id));
      }
    },
    /** Newest first; with a recipient, only that recipient's messages. */
    latest(limit = 50, recipient?: string) {
      const query = db.select().from(outboxMessages);
      const filtered = recipient ? query.where(eq(outboxMessages.recipient, recipient)) : query;
      return filtered.orderBy(desc(outboxMessages.id)).limit(limit);
    },
  };
}

export type MessagingService = ReturnType<typeof createMessagingService>;
