import { connect, type Socket } from 'node:net';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { EmailConfig } from '../config/env.ts';
import type { MessageRecord } from './message-store.ts';
import { spamNoticeLine, type ChannelSender, type OwnerNotice } from './notifier.ts';

/** A visitor's text inside a header or a one-line summary: line breaks and other control characters become spaces. */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
}

/** The mail for one message, as nodemailer takes it. */
function ownerMail(message: MessageRecord, notice: OwnerNotice, config: EmailConfig, siteUrl: string): SendMailOptions {
  const name = oneLine(message.name);
  const spam = spamNoticeLine(notice);
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
      ...(spam === null ? [] : [spam]),
      `Message #${message.id}. Reply to this mail to answer ${name}: Reply-To is their address.`,
      `Your inbox: ${config.inboxCommand}`,
    ].join('\n'),
  };
}

/**
 * Mails each message to the owner through the SMTP server of SMTP_URL, one connection per mail.
 * `timeoutMs` bounds the whole transaction, from the connection to the last byte of the server's
 * answer to the data: nodemailer's own timeouts are per phase and per silence, so a server that
 * answers one byte at a time would hold a send, and every mail queued behind it, for good. When
 * it passes, the connection is destroyed and the attempt counts as failed (the notifier retries).
 */
export class EmailSender implements ChannelSender {
  readonly channel = 'email';
  /** The connections of sends in progress, destroyed by close(). */
  private readonly open = new Set<Socket>();

  constructor(
    private readonly config: EmailConfig,
    private readonly siteUrl: string,
    readonly timeoutMs = 30_000,
  ) {}

  async send(message: MessageRecord, notice: OwnerNotice): Promise<string | null> {
    let socket: Socket | undefined;
    let timedOut = false;
    const third = Math.floor(this.timeoutMs / 3);
    // A transport object rather than options: given options with a `url`, createTransport keeps
    // only what the URL says and drops the rest (the timeouts, getSocket).
    const transport = nodemailer.createTransport(
      new SMTPTransport({
        url: this.config.smtpUrl,
        connectionTimeout: third,
        greetingTimeout: third,
        // A server may think for a while after the data (a spam scan): only the deadline below limits that.
        socketTimeout: this.timeoutMs,
        // Our own connection, so that the deadline below can end it whatever phase the send is in;
        // nodemailer speaks SMTP over it, and TLS for smtps:// or after STARTTLS.
        getSocket: (options: SMTPTransport.Options, done: (error: Error | null, socket: object) => void) => {
          const opened = connect({ host: options.host ?? 'localhost', port: smtpPort(options) });
          socket = opened;
          this.open.add(opened);
          opened.once('close', () => this.open.delete(opened));
          let connected = false;
          opened.once('connect', () => {
            connected = true;
            done(null, { connection: opened });
          });
          // Once connected, nodemailer listens for the socket's errors itself.
          opened.once('error', (error) => {
            if (!connected) done(error, {});
          });
          if (timedOut) opened.destroy(new Error('send time limit passed'));
        },
      }),
    );
    const deadline = setTimeout(() => {
      timedOut = true;
      socket?.destroy(new Error('send time limit passed'));
    }, this.timeoutMs);
    try {
      await transport.sendMail(ownerMail(message, notice, this.config, this.siteUrl));
      return null;
    } catch (error) {
      if (timedOut)
        return `no complete answer from the SMTP server within ${this.timeoutMs / 1000} s: connection closed`;
      return error instanceof Error ? error.message : String(error);
    } finally {
      clearTimeout(deadline);
      socket?.destroy();
    }
  }

  close(): void {
    for (const socket of this.open) socket.destroy();
  }
}

/** The port nodemailer would connect to: the URL's, else 465 for smtps:// and 587 for smtp://. */
function smtpPort(options: SMTPTransport.Options): number {
  return Number(options.port) || (options.secure === true ? 465 : 587);
}
