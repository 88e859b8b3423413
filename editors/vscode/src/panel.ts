//! What feeds the live page in an editor's panel, with no editor in it: the page (`page`'s
//! document) says when it listens; it is then caught up with every event the server keeps
//! (`events {since: 0}`) and handed each live event after, in `seq` order and once each. The
//! page drops an event whose `seq` is not above the last it drew, so nothing live may reach
//! it before the catch-up: live events wait meanwhile. The webview is extension.ts's.

import { Client } from "./client";
import { EventsResult, ServerEvent } from "./protocol";

/** What the page is sent: events (one message, in `seq` order) or its status line. */
export type PageMessage = ServerEvent[] | { status: string };

export class PanelFeed {
  private client?: Client;
  /** The last `seq` handed to the page. */
  private drawn = 0;
  /** The page listens: it said so since it was (re)loaded. */
  private listening = false;
  /** Live events that came during a catch-up. */
  private held?: ServerEvent[];
  /** Counts the page's loads: a catch-up for a page since reloaded is dropped. */
  private load = 0;
  private readonly onEvent = (event: ServerEvent) => this.live(event);
  private readonly onClose = (why: string) => this.post({ status: `disconnected: ${why}` });

  constructor(private readonly post: (message: PageMessage) => void) {}

  /**
   * Follows `client` from now on. A new connection may be a new server whose `seq` starts
   * over: the page is to be loaded afresh (its own `seq` with it), and says when it listens.
   */
  attach(client: Client): void {
    this.detach();
    this.client = client;
    this.listening = false;
    this.load += 1;
    client.on("event", this.onEvent);
    client.on("close", this.onClose);
  }

  detach(): void {
    this.client?.off("event", this.onEvent);
    this.client?.off("close", this.onClose);
    this.client = undefined;
    this.listening = false;
  }

  /** The page said it listens (`{ready: true}`): a new or reloaded page, drawn from nothing. */
  async ready(): Promise<void> {
    const client = this.client;
    if (client === undefined) return;
    const load = ++this.load;
    this.listening = true;
    this.drawn = 0;
    this.held = [];
    let kept: ServerEvent[] = [];
    try {
      kept = (await client.request<EventsResult>("events", { since: 0 })).events;
    } catch (error) {
      if (load === this.load) this.post({ status: `catching up failed: ${(error as Error).message}` });
    }
    if (load !== this.load) return;
    const held = this.held ?? [];
    this.held = undefined;
    // Sent even when empty: the page then says it is live.
    this.send([...kept, ...held], true);
  }

  private live(event: ServerEvent): void {
    if (!this.listening) return;
    if (this.held !== undefined) this.held.push(event);
    else this.send([event], false);
  }

  private send(events: ServerEvent[], always: boolean): void {
    const fresh: ServerEvent[] = [];
    for (const event of [...events].sort((a, b) => a.seq - b.seq)) {
      if (event.seq <= this.drawn) continue;
      this.drawn = event.seq;
      fresh.push(event);
    }
    if (fresh.length > 0 || always) this.post(fresh);
  }
}
