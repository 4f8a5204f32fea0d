/**
 * The pubsub scenario's publication schedule, which every process derives from
 * the parameters alone (no coordination): publication n is due at n / rate
 * seconds into the window, on topic n mod T, from publisher floor(n / T) mod P,
 * and is that publisher's floor(n / (T x P))-th on that topic. So each topic gets
 * rate / T messages a second from every publisher in turn, and each subscriber
 * knows exactly what it should receive. Subscriber s listens to topics
 * (s x k + j) mod T for j < k: the topics are spread evenly when S x k is a
 * multiple of T.
 */

export interface PubSubShape {
  publishers: number;
  topics: number;
  topicsPerSubscriber: number;
  rate: number;
  duration: number;
}

/** Publications in the whole window: one every 1/rate s for `duration` ms. */
export const publicationsOf = (p: Pick<PubSubShape, 'rate' | 'duration'>): number =>
  Math.floor((p.rate * p.duration) / 1000);

export const topicName = (topic: number): string => `t${topic}`;

export const topicOf = (n: number, p: Pick<PubSubShape, 'topics'>): number => n % p.topics;
export const publisherOf = (n: number, p: Pick<PubSubShape, 'topics' | 'publishers'>): number =>
  Math.floor(n / p.topics) % p.publishers;
/** Which of its (publisher, topic) stream's messages publication n is: 0, 1, 2 ... */
export const streamSeqOf = (n: number, p: Pick<PubSubShape, 'topics' | 'publishers'>): number =>
  Math.floor(n / (p.topics * p.publishers));
/** The (publisher, topic) stream of publication n, as one index. */
export const streamOf = (n: number, p: Pick<PubSubShape, 'topics' | 'publishers'>): number =>
  topicOf(n, p) * p.publishers + publisherOf(n, p);

/** The topics subscriber `s` listens to. */
export function topicsOfSubscriber(s: number, p: Pick<PubSubShape, 'topics' | 'topicsPerSubscriber'>): number[] {
  return Array.from({ length: p.topicsPerSubscriber }, (_, j) => (s * p.topicsPerSubscriber + j) % p.topics);
}

/** Publications on `topic` in the whole window. */
export function publicationsOnTopic(topic: number, p: Pick<PubSubShape, 'rate' | 'duration' | 'topics'>): number {
  const total = publicationsOf(p);
  return topic < total ? Math.floor((total - 1 - topic) / p.topics) + 1 : 0;
}

/**
 * A publication's text: its number and intended send time (µs on the monotonic clock), padded
 * with `x` to `size` bytes (never cut: a size below the header's length gets the header alone).
 */
export function encodePublication(n: number, intendedUs: number, size: number): string {
  const head = `${n} ${intendedUs.toFixed(1)} `;
  return head.length >= size ? head : head + 'x'.repeat(size - head.length);
}

/** The number and intended time of a publication's text; null when it is not one. */
export function decodePublication(payload: string): { n: number; intendedUs: number } | null {
  const space = payload.indexOf(' ');
  const end = payload.indexOf(' ', space + 1);
  if (space <= 0 || end < 0) return null;
  const n = Number(payload.slice(0, space));
  const intendedUs = Number(payload.slice(space + 1, end));
  return Number.isInteger(n) && n >= 0 && Number.isFinite(intendedUs) ? { n, intendedUs } : null;
}
