/**
 * Pub/sub as a user of `ws` or Deno writes it, since neither stack has topics of
 * its own: a Map from topic to the Set of its sockets, and each socket's own Set
 * of topics so that a close takes it off all of them. Publishing is a loop over
 * the topic's set, the way such a user sends to every socket.
 */
export class TopicMap<Socket> {
  private readonly topics = new Map<string, Set<Socket>>();
  private readonly joined = new Map<Socket, Set<string>>();

  subscribe(socket: Socket, topic: string): void {
    let members = this.topics.get(topic);
    if (!members) this.topics.set(topic, (members = new Set()));
    members.add(socket);
    let mine = this.joined.get(socket);
    if (!mine) this.joined.set(socket, (mine = new Set()));
    mine.add(topic);
  }

  unsubscribe(socket: Socket, topic: string): void {
    const members = this.topics.get(topic);
    members?.delete(socket);
    if (members?.size === 0) this.topics.delete(topic);
    this.joined.get(socket)?.delete(topic);
  }

  /** A socket closed: off every topic it joined. */
  leave(socket: Socket): void {
    for (const topic of this.joined.get(socket) ?? []) this.unsubscribe(socket, topic);
    this.joined.delete(socket);
  }

  /** The sockets subscribed to `topic` (empty when none). */
  subscribers(topic: string): Iterable<Socket> {
    return this.topics.get(topic) ?? [];
  }
}
