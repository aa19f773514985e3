import nodemailer, { type Transporter } from 'nodemailer';
import type { EmailConfig } from '../config/env.ts';
import type { MessageRecord } from './message-store.ts';
import type { ChannelSender } from './notifier.ts';

/** A visitor's text inside a header or a one-line summary: line breaks and other control characters become spaces. */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
}

/** The mail for one message, as nodemailer takes it. */
function ownerMail(message: MessageRecord, config: EmailConfig, siteUrl: string): nodemailer.SendMailOptions {
  const name = oneLine(message.name);
  const sentAt = new Date(message.createdAt);
  return {
    from: config.from,
    to: config.to,
    // An address object, never a string built from the visitor's name: nodemailer quotes and encodes
    // the name, so no name can end the header or add a recipient.
    replyTo: { name, address: message.email },
    subject: `Contact message from ${name}`,
    // Stable per message, so a mail sent again after a lost acknowledgement is recognisably the same one.
    messageId: `<message-${message.id}@${new URL(siteUrl).hostname}>`,
    date: sentAt,
    text: [
      `${name} <${message.email}> wrote on ${sentAt.toISOString()} through ${siteUrl}/contact:`,
      '',
      message.message,
      '',
      '-- ',
      `Message #${message.id}. Reply to this mail to answer ${name}: Reply-To is their address.`,
      `Your inbox on the server: ${config.inboxCommand}`,
    ].join('\n'),
  };
}

/** Mails each message to the owner through the SMTP server of SMTP_URL. */
export class EmailSender implements ChannelSender {
  readonly channel = 'email';
  private readonly transport: Transporter;

  constructor(
    private readonly config: EmailConfig,
    private readonly siteUrl: string,
    readonly timeoutMs = 30_000,
  ) {
    const third = Math.floor(timeoutMs / 3);
    this.transport = nodemailer.createTransport({
      url: config.smtpUrl,
      connectionTimeout: third,
      greetingTimeout: third,
      socketTimeout: third,
    });
  }

  async send(message: MessageRecord): Promise<string | null> {
    try {
      await this.transport.sendMail(ownerMail(message, this.config, this.siteUrl));
      return null;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  close(): void {
    this.transport.close();
  }
}
