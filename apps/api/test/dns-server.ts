import dgram from 'node:dgram';
import dnsPacket from 'dns-packet';

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, for DNS_SERVERS. */
  address: string;
  /** TXT records by lower-case name, each record's value as one string; change it in a test. */
  txt: Map<string, string[]>;
  /** Names answered with SERVFAIL (a broken zone). */
  failing: Set<string>;
  /** Names never answered (a server that drops the query: the client's timeout). */
  silent: Set<string>;
  /** The names asked for, in order (lower case). */
  asked: string[];
  close(): Promise<void>;
}

/**
 * A real DNS server over UDP on 127.0.0.1 (a random port, or `port` when the server under test
 * must be told it before it starts, as in the journeys), answering TXT questions from a map the
 * test controls: a name in it has its records, any other name is NXDOMAIN. dns-packet reads and
 * writes the wire format.
 */
export async function startTestDnsServer(options: { port?: number } = {}): Promise<TestDnsServer> {
  const socket = dgram.createSocket('udp4');
  const txt = new Map<string, string[]>();
  const failing = new Set<string>();
  const silent = new Set<string>();
  const asked: string[] = [];
  socket.on('message', (message, from) => {
    let query: dnsPacket.DecodedPacket;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase();
    asked.push(name);
    if (silent.has(name)) return;
    const records = question.type === 'TXT' ? (txt.get(name) ?? []) : [];
    const known = txt.has(name);
    const rcode = failing.has(name) ? 'SERVFAIL' : known ? 'NOERROR' : 'NXDOMAIN';
    const answer = dnsPacket.encode({
      type: 'response',
      id: query.id,
      // Authoritative answer, recursion desired and available; the rcode is the low four bits.
      flags:
        dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | RCODES[rcode],
      questions: [question],
      answers:
        rcode === 'NOERROR'
          ? records.map((value) => ({
              type: 'TXT' as const,
              class: 'IN' as const,
              name: question.name,
              ttl: 60,
              data: value,
            }))
          : [],
    });
    socket.send(answer, from.port, from.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  return {
    address: `127.0.0.1:${socket.address().port}`,
    txt,
    failing,
    silent,
    asked,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

const RCODES = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3 } as const;
