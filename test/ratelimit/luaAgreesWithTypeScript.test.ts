import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { rateLimitScripts } from '../../src/ratelimit/scripts.ts';
import {
  askToSend,
  EMPTY_SEND_LOG,
  LATENESS_FORGIVEN_MS,
  pauseSendLog,
  type SendDecision,
  type SendLogState,
  type SendWindowRule,
  sendWindowRule,
  stampSend,
} from '../../src/ratelimit/sendWindow.ts';
import { Rng } from '../../src/simulator/rng.ts';
import { cleanupRedisPrefix, testRedisPrefix } from '../helpers/redis.ts';

/**
 * The send-log rule exists twice: in TypeScript (src/ratelimit/sendWindow.ts, a process alone or
 * during a Redis outage) and in Lua (src/ratelimit/scripts.ts, the whole deployment). Both are fed
 * the same 10,000 random sequences of asks, stamps and pauses at the same instants (the scripts
 * read the time from their arguments here instead of Redis' clock), and must decide alike at every
 * step and end with the same send log.
 */

const SEQUENCES = 10_000;
/** Every sequence from this seed and its index: a failure names the one to replay. */
const SEED = 20261127;
/** Epoch milliseconds, as Redis' clock gives them: scores must keep their decimals at this size. */
const START = 1_796_000_000_000;
const RATES = [0.25, 0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 7, 10, 11, 20, 50];
const MAX_PAUSE_WAITS = [0, 500, 60_000];

type Step =
  | { kind: 'ask'; at: number; member: string }
  | { kind: 'stamp'; at: number; member: string }
  | { kind: 'pause'; at: number; ms: number };

interface Sequence {
  rps: number;
  maxPauseWaitMs: number;
  steps: Step[];
}

/** A random sequence: mostly asks and stamps close together, a pause now and then, re-asks of a member. */
function randomSequence(index: number): Sequence {
  const rng = new Rng(SEED + index);
  const rps = rng.pick(RATES);
  const steps: Step[] = [];
  let at = START + rng.int(0, 999);
  for (let i = rng.int(3, 30); i > 0; i--) {
    at += rng.chance(0.5) ? rng.int(0, 60) : rng.int(0, 2_500);
    const member = `m${rng.int(1, 5)}`;
    const roll = rng.next();
    if (roll < 0.55) steps.push({ kind: 'ask', at, member });
    else if (roll < 0.9) steps.push({ kind: 'stamp', at, member });
    else steps.push({ kind: 'pause', at, ms: rng.int(0, 3_000) });
  }
  return { rps, maxPauseWaitMs: rng.pick(MAX_PAUSE_WAITS), steps };
}

/** The rule as the scripts receive it: each number written with three decimals. */
function ruleAsSent(rps: number): { rule: SendWindowRule; args: [string, string, string] } {
  const exact = sendWindowRule(rps);
  const args: [string, string, string] = [
    String(exact.sends),
    exact.windowMs.toFixed(3),
    exact.spacingMs.toFixed(3),
  ];
  return { rule: { sends: exact.sends, windowMs: Number(args[1]), spacingMs: Number(args[2]) }, args };
}

/**
 * Milliseconds the two may differ by: the scripts store and reply with three decimals, TypeScript
 * keeps whole doubles, so a last digit may round either way.
 */
const ROUNDING_MS = 0.002;

/** One step's outcome: what it decided and the milliseconds that came with it (0 when none). */
interface Outcome {
  kind: string;
  ms: number;
}

function outcomeOf(decision: SendDecision): Outcome {
  if (decision.kind === 'send') return { kind: 'send', ms: 0 };
  return { kind: decision.kind, ms: decision.kind === 'paused' ? decision.pausedMs : decision.waitMs };
}

function outcomeOfReply(reply: string[]): Outcome {
  return { kind: String(reply[0]), ms: reply.length > 1 ? Number(reply[1]) : 0 };
}

/** A log entry as `member` and when (its turn, or when it went). */
interface Entry {
  member: string;
  at: number;
}

interface Run {
  outcomes: Outcome[];
  log: Entry[];
}

/** Where two runs part, or undefined when they agree to the rounding. */
function firstDifference(expected: Run, actual: Run): string | undefined {
  const step = expected.outcomes.findIndex((e, i) => {
    const a = actual.outcomes[i];
    return a === undefined || a.kind !== e.kind || Math.abs(a.ms - e.ms) > ROUNDING_MS;
  });
  if (step >= 0) return `step ${step}`;
  if (expected.log.length !== actual.log.length) return 'log length';
  const entry = expected.log.findIndex((e, i) => {
    const a = actual.log[i];
    return a === undefined || a.member !== e.member || Math.abs(a.at - e.at) > ROUNDING_MS;
  });
  return entry >= 0 ? `log entry ${entry}` : undefined;
}

const byMember = (a: Entry, b: Entry) => a.member.localeCompare(b.member);

/** What TypeScript decides at each step, and the log it ends with. */
function runTypeScript(sequence: Sequence): Run {
  const { rule } = ruleAsSent(sequence.rps);
  let state: SendLogState = EMPTY_SEND_LOG;
  const outcomes: Outcome[] = [];
  for (const step of sequence.steps) {
    if (step.kind === 'ask') {
      const next = askToSend(state, rule, {
        now: step.at,
        member: step.member,
        maxPauseWaitMs: sequence.maxPauseWaitMs,
      });
      state = next.state;
      outcomes.push(outcomeOf(next.decision));
    } else if (step.kind === 'stamp') {
      const moved = stampSend(state, rule, step.member, step.at);
      outcomes.push({ kind: 'stamp', ms: moved === state ? 0 : 1 });
      state = moved;
    } else {
      const pausedUntil = Math.max(state.pausedUntil, step.at + step.ms);
      state = pauseSendLog(state, step.at, step.ms);
      outcomes.push({ kind: 'pause', ms: Math.ceil(pausedUntil - step.at) });
    }
  }
  // The script drops entries older than the window only when asked: compare what both still hold
  // inside the window of the last step.
  const last = sequence.steps.at(-1)?.at ?? START;
  const log = state.log.filter((e) => e.at > last - rule.windowMs).sort(byMember);
  return { outcomes, log };
}

type ScriptedRedis = Redis & {
  agreeAsk(sent: string, nextDue: string, paused: string, ...args: string[]): Promise<string[]>;
  agreeStamp(sent: string, nextDue: string, ...args: string[]): Promise<number>;
  agreePause(paused: string, ...args: string[]): Promise<number>;
};

/** What the Lua scripts decide at each step, and the log they end with. */
async function runLua(redis: ScriptedRedis, keyBase: string, sequence: Sequence): Promise<Run> {
  const { rule, args } = ruleAsSent(sequence.rps);
  const keys = { sent: `${keyBase}:sent`, nextDue: `${keyBase}:next`, paused: `${keyBase}:paused` };
  const pushMs = (rule.spacingMs - LATENESS_FORGIVEN_MS).toFixed(3);
  const outcomes: Outcome[] = [];
  for (const step of sequence.steps) {
    const now = String(step.at);
    if (step.kind === 'ask') {
      const reply = await redis.agreeAsk(
        keys.sent,
        keys.nextDue,
        keys.paused,
        ...args,
        String(sequence.maxPauseWaitMs),
        step.member,
        now,
      );
      outcomes.push(outcomeOfReply(reply));
    } else if (step.kind === 'stamp') {
      outcomes.push({
        kind: 'stamp',
        ms: await redis.agreeStamp(keys.sent, keys.nextDue, step.member, pushMs, now),
      });
    } else {
      outcomes.push({ kind: 'pause', ms: await redis.agreePause(keys.paused, String(step.ms), now) });
    }
  }
  const last = sequence.steps.at(-1)?.at ?? START;
  const scored = await redis.zrangebyscore(
    keys.sent,
    `(${(last - rule.windowMs).toFixed(3)}`,
    '+inf',
    'WITHSCORES',
  );
  const log: Entry[] = [];
  for (let i = 0; i < scored.length; i += 2)
    log.push({ member: String(scored[i]), at: Number(scored[i + 1]) });
  return { outcomes, log: log.sort(byMember) };
}

const prefix = testRedisPrefix('lua-agrees');
let redis: ScriptedRedis;

beforeAll(() => {
  redis = new Redis(inject('redisUrl'), { enableAutoPipelining: true }) as ScriptedRedis;
  const scripts = rateLimitScripts('argument');
  redis.defineCommand('agreeAsk', { numberOfKeys: 3, lua: scripts.askToSend });
  redis.defineCommand('agreeStamp', { numberOfKeys: 2, lua: scripts.stampSend });
  redis.defineCommand('agreePause', { numberOfKeys: 1, lua: scripts.extendPause });
});
afterAll(async () => {
  await cleanupRedisPrefix(redis, prefix);
  redis.disconnect();
});

describe('the Lua send-log scripts and sendWindow.ts', () => {
  it(`decide alike on ${SEQUENCES.toLocaleString('en-US')} random sequences`, async () => {
    const disagreements: string[] = [];
    let steps = 0;
    // Many sequences in flight at once (each on keys of its own), pipelined on one connection.
    const batch = 250;
    for (let from = 0; from < SEQUENCES; from += batch) {
      await Promise.all(
        Array.from({ length: Math.min(batch, SEQUENCES - from) }, async (_, offset) => {
          const index = from + offset;
          const sequence = randomSequence(index);
          steps += sequence.steps.length;
          const expected = runTypeScript(sequence);
          const actual = await runLua(redis, `${prefix}:${index}`, sequence);
          const difference = firstDifference(expected, actual);
          if (difference !== undefined)
            disagreements.push(
              `sequence ${index} (seed ${SEED + index}, ${sequence.rps}/s) parts at ${difference}: ${JSON.stringify({ sequence, expected, actual })}`,
            );
        }),
      );
    }
    expect(disagreements.slice(0, 3)).toEqual([]);
    expect(steps).toBeGreaterThan(SEQUENCES * 3);
  }, 180_000);

  it('read Redis’ own clock in production', () => {
    const production = rateLimitScripts();
    for (const script of Object.values(production)) {
      expect(script).toContain("redis.call('TIME')");
      expect(script).not.toContain('ARGV[#ARGV]');
    }
  });
});
