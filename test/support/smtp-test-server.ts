import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';

/** One message as the server accepted it: the envelope plus the parsed MIME message. */
export interface ReceivedEmail {
  from: string;
  to: string[];
  raw: string;
  /** Parsed by mailparser: an implementation independent of the service's nodemailer. */
  parsed: ParsedMail;
  subject: string;
  text: string;
  html: string;
  messageId: string;
}

export interface SmtpRejection {
  /** SMTP reply code, e.g. 451 (temporary) or 550 (permanent). */
  code: number;
  message: string;
}

/**
 * A real SMTP server on 127.0.0.1 (no TLS, no auth) that keeps every message it accepts.
 * `rejectNext` makes it refuse the next messages at DATA with a given code; `holdReplies` keeps
 * its final reply to DATA until the test releases it.
 */
export class SmtpTestServer {
  readonly messages: ReceivedEmail[] = [];
  /** How long the server waits before its final reply to DATA (benchmarks: sends in flight). */
  replyDelayMs = 0;
  url = '';
  port = 0;

  private server: SMTPServer | null = null;
  private readonly rejections: SmtpRejection[] = [];
  private held: Promise<void> | null = null;

  async start(): Promise<this> {
    const server = new SMTPServer({
      secure: false,
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        void this.receive(stream, session.envelope).then(
          async () => {
            await this.held;
            if (this.replyDelayMs > 0) await delay(this.replyDelayMs);
            const rejection = this.rejections.shift();
            if (rejection) {
              this.messages.pop();
              const error = new Error(rejection.message) as Error & { responseCode: number };
              error.responseCode = rejection.code;
              callback(error);
              return;
            }
            callback();
          },
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.port = (server.server.address() as AddressInfo).port;
    this.url = `smtp://127.0.0.1:${this.port}`;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * Holds the final reply to every message until the returned function is called: the message
   * is kept (`messagesTo` finds it) while its sender still waits for the answer.
   */
  holdReplies(): () => void {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    this.held = held;
    return () => {
      if (this.held === held) this.held = null;
      release();
    };
  }

  rejectNext(...rejections: SmtpRejection[]): this {
    this.rejections.push(...rejections);
    return this;
  }

  reset(): this {
    this.messages.length = 0;
    this.rejections.length = 0;
    return this;
  }

  messagesTo(address: string): ReceivedEmail[] {
    return this.messages.filter((message) =>
      message.to.some((to) => to.toLowerCase() === address.toLowerCase()),
    );
  }

  private async receive(
    stream: SMTPServerDataStream,
    envelope: { mailFrom: false | { address: string }; rcptTo: Array<{ address: string }> },
  ): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const parsed = await simpleParser(raw);
    this.messages.push({
      from: envelope.mailFrom ? envelope.mailFrom.address : '',
      to: envelope.rcptTo.map((rcpt) => rcpt.address),
      raw,
      parsed,
      subject: parsed.subject ?? '',
      text: parsed.text ?? '',
      html: typeof parsed.html === 'string' ? parsed.html : '',
      messageId: parsed.messageId ?? '',
    });
  }
}
