import net from 'node:net';

export interface CapturedMail {
  from: string;
  to: string[];
  data: string;
}

/**
 * A minimal SMTP server on 127.0.0.1 for tests: enough of RFC 5321 for
 * nodemailer (EHLO, MAIL, RCPT, DATA, RSET, NOOP, QUIT), capturing each
 * message so a test can read what a real SMTP delivery carried.
 */
export async function startFakeSmtp(opts: { rejectRcpt?: boolean } = {}): Promise<{ port: number; messages: CapturedMail[]; close(): Promise<void> }> {
  const messages: CapturedMail[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
    sock.on('error', () => undefined);
    let buf = '';
    let inData = false;
    let cur: CapturedMail = { from: '', to: [], data: '' };
    const say = (line: string) => sock.write(`${line}\r\n`);
    say('220 fake.local ESMTP');
    sock.on('data', (chunk) => {
      buf += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buf.indexOf('\r\n.\r\n');
          if (end < 0) return;
          cur.data = buf.slice(0, end).replace(/\r\n\.\./g, '\r\n.');
          buf = buf.slice(end + 5);
          inData = false;
          messages.push(cur);
          cur = { from: '', to: [], data: '' };
          say('250 2.0.0 queued');
          continue;
        }
        const nl = buf.indexOf('\r\n');
        if (nl < 0) return;
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 2);
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === 'EHLO' || cmd === 'HELO') {
          sock.write('250-fake.local\r\n250 8BITMIME\r\n');
        } else if (cmd === 'MAIL') {
          cur.from = line.replace(/^MAIL FROM:\s*/i, '').replace(/[<>]/g, '').split(' ')[0];
          say('250 OK');
        } else if (cmd === 'RCPT') {
          if (opts.rejectRcpt) say('550 5.1.1 mailbox unavailable');
          else {
            cur.to.push(line.replace(/^RCPT TO:\s*/i, '').replace(/[<>]/g, '').trim());
            say('250 OK');
          }
        } else if (cmd === 'DATA') {
          inData = true;
          say('354 end with .');
        } else if (cmd === 'RSET') {
          cur = { from: '', to: [], data: '' };
          say('250 OK');
        } else if (cmd === 'NOOP') say('250 OK');
        else if (cmd === 'QUIT') {
          say('221 bye');
          sock.end();
        }
        else say('502 not implemented');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    messages,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
