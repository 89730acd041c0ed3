import * as fc from 'fast-check';

/*
 * One API request at a time across every provider process of a driver, the next among those
 * waiting chosen by `choose`: the resources of a walk run at once (Terraform's -parallelism) and
 * still interleave the same way for the same choices, so a model's seed replays its run. A pick
 * waits for the event loop to settle (setImmediate, after every promise callback), so each RPC
 * that will send a request has asked by then: the provider's code between two requests runs on
 * promises alone (its waits are the driver's clock).
 */
export class RequestGate {
  private readonly waiting: Array<() => void> = [];
  private busy = false;
  private picking = false;

  constructor(private readonly choose: (waiting: number) => number = () => 0) {}

  /** Runs `request` once it is this request's turn; the next turn comes when it settles. */
  public async through<T>(request: () => Promise<T>): Promise<T> {
    await new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      this.pick();
    });
    try {
      return await request();
    } finally {
      this.busy = false;
      this.pick();
    }
  }

  private pick(): void {
    if (this.busy || this.picking || this.waiting.length === 0) return;
    this.picking = true;
    setImmediate(() => {
      this.picking = false;
      this.busy = true;
      const [next] = this.waiting.splice(this.choose(this.waiting.length) % this.waiting.length, 1);
      next();
    });
  }
}

/**
 * A model's draw of how a walk's resources interleave (ProtocolDriver.interleaving), in one
 * sequence of three; else none, one after another, where a plan begun after an apply in its
 * process shows whether it waits unseen (resources begun at once plan before any apply).
 */
export const INTERLEAVINGS = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 2 },
  { arbitrary: fc.array(fc.nat({ max: 5 }), { minLength: 1, maxLength: 16 }), weight: 1 },
);
