// An authoritative name server for zone transfers (AXFR, RFC 5936) over TCP, with dns-packet:
// the sandbox's stand-in for the remote name servers of its world. A zone it serves goes out
// between two copies of its SOA, packed into as many messages as its size needs (as real servers
// split large zones); an AXFR of another zone is REFUSED, another query NOTIMP. One query per
// connection, then the connection closes. It answers nothing over UDP: transfers use TCP only.
import net from 'node:net';
import dnsPacket from 'dns-packet';
import type { Answer, Packet } from 'dns-packet';

const REFUSED = 5;
const NOT_IMPLEMENTED = 4;
/** A client that sends no complete query within this time is disconnected. */
const IDLE_MS = 10_000;
/** TCP DNS messages carry a two-byte length: a query never needs more than this. */
const MAX_QUERY_BYTES = 2 + 65_535;

export interface ZoneServerOptions {
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** The largest message of a transfer, in bytes (a zone takes as many as it needs). */
  messageBytes?: number;
}

export interface ZoneServer {
  host: string;
  port: number;
  /** How many AXFR queries were asked, served or refused. */
  readonly transfers: number;
  /** Cuts open connections and stops listening. */
  close(): Promise<void>;
}

/** The answer records in messages of at most `limit` bytes each (one record at least per message). */
function messages(query: Packet, answers: readonly Answer[], limit: number): Packet[] {
  const reply = (list: Answer[]): Packet => ({ type: 'response', id: query.id, flags: dnsPacket.AUTHORITATIVE_ANSWER, questions: query.questions, answers: list });
  const out: Packet[] = [];
  let current: Answer[] = [];
  for (const answer of answers) {
    if (current.length && dnsPacket.encodingLength(reply([...current, answer])) > limit) {
      out.push(reply(current));
      current = [];
    }
    current.push(answer);
  }
  if (current.length) out.push(reply(current));
  return out;
}

/** What the server sends for one query. */
function answerTo(query: Packet, zones: ReadonlyMap<string, readonly Answer[]>, limit: number): Packet[] {
  const question = query.questions?.[0];
  const fail = (rcode: number): Packet[] => [{ type: 'response', id: query.id, flags: dnsPacket.AUTHORITATIVE_ANSWER | rcode, questions: query.questions, answers: [] }];
  if (!question || question.type !== 'AXFR') return fail(NOT_IMPLEMENTED);
  const records = zones.get(question.name.toLowerCase());
  if (!records) return fail(REFUSED);
  return messages(query, [...records, records[0]!], limit);
}

export function startZoneServer(zones: ReadonlyMap<string, readonly Answer[]>, options: ZoneServerOptions = {}): Promise<ZoneServer> {
  const host = options.host ?? '127.0.0.1';
  const limit = options.messageBytes ?? 16 * 1024;
  const sockets = new Set<net.Socket>();
  let transfers = 0;
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.setTimeout(IDLE_MS, () => socket.destroy());
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length > MAX_QUERY_BYTES) return socket.destroy();
      if (buffered.length < 2 || buffered.length < 2 + buffered.readUInt16BE(0)) return;
      socket.off('data', onData);
      let query: Packet;
      try {
        query = dnsPacket.decode(buffered.subarray(2, 2 + buffered.readUInt16BE(0)));
      } catch {
        return socket.destroy(); // not a DNS message: nothing to answer
      }
      if (query.questions?.[0]?.type === 'AXFR') transfers++;
      const replies = answerTo(query, zones, limit);
      replies.forEach((reply, i) => {
        const bytes = dnsPacket.streamEncode(reply);
        if (i === replies.length - 1) socket.end(bytes);
        else socket.write(bytes);
      });
    };
    socket.on('data', onData);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve({
        host,
        port: (server.address() as net.AddressInfo).port,
        get transfers() { return transfers; },
        close: () => new Promise<void>((done) => {
          for (const socket of sockets) socket.destroy();
          server.close(() => done());
        }),
      });
    });
  });
}
