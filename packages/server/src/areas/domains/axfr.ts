// A zone transfer (AXFR, RFC 5936) over TCP with dns-packet: one query, then answer messages
// (each with a two-byte length) until the zone's SOA comes a second time. A name server of the
// sandbox world (the spec's example `ns1.legacy.example`) is the sandbox's own name server on
// 127.0.0.1 (src/sandbox/). Any other is reached on AXFR_PORT (default 53), so that tests can
// serve a zone from 127.0.0.1 on a free port, at its address in DNS or the one AXFR_RESOLVE
// (`host=address,…`, like curl's --resolve) gives it.
import net from 'node:net';
import dnsPacket from 'dns-packet';
import type { Answer, DecodedPacket } from 'dns-packet';
import { TransferError } from '../../sandbox/sandbox.js';
import type { NameServerAddress } from '../../sandbox/sandbox.js';

export { TransferError };

export const DEFAULT_AXFR_PORT = 53;
const TRANSFER_TIMEOUT_MS = 15_000;
/** A zone bigger than this is refused rather than held in memory. */
const MAX_TRANSFER_BYTES = 16 * 1024 * 1024;

/** The port zone transfers use: AXFR_PORT when set (a whole number 1..65535), else 53. */
export function axfrPort(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.AXFR_PORT;
  if (raw === undefined || raw === '') return DEFAULT_AXFR_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new TransferError(`AXFR_PORT must be a port number 1..65535, got ${JSON.stringify(raw)}`);
  return port;
}

/** The address to connect to for `nameserver`: its AXFR_RESOLVE entry, else the name itself. */
export function axfrAddress(nameserver: string, env: NodeJS.ProcessEnv = process.env): string {
  for (const entry of (env.AXFR_RESOLVE ?? '').split(',').map((e) => e.trim()).filter(Boolean)) {
    const at = entry.indexOf('=');
    if (at <= 0 || at === entry.length - 1) throw new Error(`AXFR_RESOLVE entries are host=address, got ${JSON.stringify(entry)}`);
    if (entry.slice(0, at).toLowerCase() === nameserver.toLowerCase()) return entry.slice(at + 1);
  }
  return nameserver;
}

export interface TransferTarget {
  host: string;
  port: number;
}

/** Where a transfer from `nameserver` connects: the sandbox's name server, or the name server itself. */
export function transferTarget(nameserver: string, sandbox: { nameServerAddress: NameServerAddress }, env: NodeJS.ProcessEnv = process.env): TransferTarget {
  return sandbox.nameServerAddress(nameserver) ?? { host: axfrAddress(nameserver, env), port: axfrPort(env) };
}

/** Every record of `zone` as `nameserver` (reached at `target`) transfers it, the opening SOA first. */
export function transferZone(nameserver: string, target: TransferTarget, zone: string, timeoutMs = TRANSFER_TIMEOUT_MS): Promise<Answer[]> {
  const { port } = target;
  return new Promise((resolve, reject) => {
    const answers: Answer[] = [];
    let buffered = Buffer.alloc(0);
    let received = 0;
    let soaSeen = 0;
    let settled = false;
    const socket = net.connect({ host: target.host, port });
    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      if (error) reject(error);
      else resolve(answers);
    };
    socket.setTimeout(timeoutMs, () => finish(new TransferError(`${nameserver} did not complete the zone transfer within ${timeoutMs / 1000} s`)));
    socket.on('connect', () => {
      socket.write(dnsPacket.streamEncode({ type: 'query', id: Math.floor(Math.random() * 65536), flags: 0, questions: [{ type: 'AXFR', name: zone, class: 'IN' }] }));
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      const why = error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN' ? 'could not be resolved'
        : error.code === 'ECONNREFUSED' ? `refused the connection on port ${port}` : `could not be reached (${error.code ?? error.message})`;
      finish(new TransferError(`${nameserver} ${why}`));
    });
    socket.on('end', () => finish(new TransferError(`${nameserver} closed the connection before the zone transfer was complete`)));
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_TRANSFER_BYTES) return finish(new TransferError(`the zone transferred from ${nameserver} exceeds ${MAX_TRANSFER_BYTES} bytes`));
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
        const size = buffered.readUInt16BE(0);
        let message: DecodedPacket & { rcode?: string };
        try {
          message = dnsPacket.decode(buffered.subarray(2, 2 + size)) as DecodedPacket & { rcode?: string };
        } catch (error) {
          return finish(new TransferError(`${nameserver} sent a malformed DNS message (${(error as Error).message})`));
        }
        buffered = buffered.subarray(2 + size);
        if (message.rcode && message.rcode !== 'NOERROR') return finish(new TransferError(`${nameserver} refused the zone transfer of ${zone} (${message.rcode})`));
        for (const answer of message.answers ?? []) {
          if (answers.length === 0 && (answer.type !== 'SOA' || answer.name.toLowerCase() !== zone)) {
            return finish(new TransferError(`${nameserver} did not start the transfer with the SOA of ${zone}`));
          }
          if (answer.type === 'SOA' && answer.name.toLowerCase() === zone && ++soaSeen === 2) return finish(null);
          answers.push(answer);
        }
      }
    });
  });
}
