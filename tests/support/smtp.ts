import { connect, createServer, type Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail as the SMTP server received it: the envelope, and the headers and body of the data. */
interface ReceivedMail {
  from: string;
  to: string[];
  /** Header names in lower case; a header folded over lines is unfolded. */
  headers: Record<string, string>;
  body: string;
}

export interface Mailbox {
  /** An smtp:// URL for SMTP_URL, with an account the server checks. */
  url: string;
  port: number;
  mails: ReceivedMail[];
  /** Every DATA transaction, refused ones included. */
  attempts: () => number;
  /** Refuses the next `count` mails with 451 (a temporary failure), or every mail with Infinity. */
  refuse(count: number): void;
  close(): Promise<void>;
}

const USER = 'portfolio';
const PASSWORD = 'p@ss word';

/** A header as read: RFC 2047 encoded words (`=?UTF-8?Q?...?=`) decoded, the space between two of them dropped. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_, encoding: string, text: string) =>
      encoding.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

/** A quoted-printable body as text: soft line breaks joined, =XX bytes decoded as UTF-8. */
function unquote(body: string): string {
  const bytes = body
    .replace(/=\r\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function parse(raw: string): Omit<ReceivedMail, 'from' | 'to'> {
  const end = raw.indexOf('\r\n\r\n');
  const headers: Record<string, string> = {};
  for (const line of raw
    .slice(0, end)
    .replace(/\r\n[ \t]+/g, ' ')
    .split('\r\n')) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  const body = raw.slice(end + 4);
  return { headers, body: /quoted-printable/i.test(headers['content-transfer-encoding'] ?? '') ? unquote(body) : body };
}

/**
 * A real SMTP server in this process (the smtp-server package), on a free port or `port`: it
 * requires the account in the URL (`account`, or a test one), and keeps every mail it accepts.
 * STARTTLS is off: it has no certificate, and nodemailer would otherwise upgrade to it.
 * `account: null` is a local relay as Debian's Postfix is: no account, and STARTTLS offered with
 * the self-signed certificate `starttls` (a key and certificate in PEM).
 */
export function startMailbox(
  port = 0,
  account: { user: string; password: string } | null = { user: USER, password: PASSWORD },
  starttls?: { key: string; cert: string },
): Promise<Mailbox> {
  const mails: ReceivedMail[] = [];
  let refusals = 0;
  let attempts = 0;
  const server = new SMTPServer({
    ...(starttls === undefined ? { disabledCommands: ['STARTTLS'] } : starttls),
    authOptional: account === null,
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (account !== null && auth.username === account.user && auth.password === account.password)
        callback(null, { user: account.user });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        attempts++;
        if (refusals > 0) {
          refusals--;
          callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
          return;
        }
        mails.push({
          from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          ...parse(Buffer.concat(chunks).toString('utf8')),
        });
        callback();
      });
    },
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.server.address() as { port: number };
      resolve({
        url:
          account === null
            ? `smtp://127.0.0.1:${bound}`
            : `smtp://${encodeURIComponent(account.user)}:${encodeURIComponent(account.password)}@127.0.0.1:${bound}`,
        port: bound,
        mails,
        attempts: () => attempts,
        refuse: (count) => (refusals = count),
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

/** The variables that mail every new message to the owner through `mailbox`. */
export function emailEnv(mailbox: Mailbox): Record<string, string> {
  return {
    SMTP_URL: mailbox.url,
    NOTIFY_EMAIL_TO: 'owner@example.com',
    NOTIFY_EMAIL_FROM: 'Portfolio <site@example.com>',
  };
}

export interface Trickler {
  /** SMTP_URL for it, with `mailbox`'s account. */
  url: string;
  /** Connections it trickled to. */
  stalled: () => number;
  /** Of those, how many the client closed. */
  closedByClient: () => number;
  close(): Promise<void>;
}

/**
 * An SMTP peer that stalls a sender without ever going silent: on its first `stalls`
 * connections it greets at once, then answers EHLO with an endless multi-line reply, one byte
 * every 100 ms, so no timeout of "this long without data" ever fires. Later connections are
 * passed through to `mailbox`.
 */
export function startTrickler(mailbox: Mailbox, stalls: number): Promise<Trickler> {
  let stalled = 0;
  let closedByClient = 0;
  let closing = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (stalled >= stalls) {
      const upstream = connect(mailbox.port, '127.0.0.1');
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      client.pipe(upstream).pipe(client);
      return;
    }
    stalled++;
    let timer: NodeJS.Timeout | undefined;
    client.on('close', () => {
      if (timer !== undefined && !closing) closedByClient++;
      clearInterval(timer);
    });
    client.write('220 trickle.example ESMTP\r\n');
    client.once('data', () => {
      const reply = '250-trickle.example is thinking\r\n';
      let sent = 0;
      timer = setInterval(() => client.write(reply[sent++ % reply.length]!), 100);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({
        url: mailbox.url.replace(`:${mailbox.port}`, `:${port}`),
        stalled: () => stalled,
        closedByClient: () => closedByClient,
        close: () => {
          closing = true;
          for (const socket of sockets) socket.destroy();
          return new Promise((done) => server.close(() => done()));
        },
      });
    }),
  );
}
