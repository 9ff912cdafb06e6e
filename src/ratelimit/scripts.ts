/**
 * The shared limiter's Redis scripts. Times come from Redis' own clock (TIME), so processes on
 * machines whose clocks disagree still count their requests on one timeline. Times are stored as
 * milliseconds with three decimals, written with string.format: Lua's default number formatting
 * keeps only 14 significant digits (and a number in a script's reply is truncated to an integer).
 *
 * Each script is written once with `NOW` standing for the current time: production reads Redis'
 * clock; the test that feeds the same random requests to these scripts and to sendWindow.ts
 * (test/ratelimit/luaAgreesWithTypeScript.test.ts) passes the time as the script's last argument,
 * so both sides decide at the same instants.
 */

/** Where a script's `now` comes from: Redis' clock, or (for the agreement test) its last ARGV. */
export type ScriptClock = 'redis' | 'argument';

const NOW_FROM_REDIS = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000`;
const NOW_FROM_ARGUMENT = 'local now = tonumber(ARGV[#ARGV])';

function withClock(script: string, clock: ScriptClock): string {
  return script.replace(/^NOW$/m, clock === 'redis' ? NOW_FROM_REDIS : NOW_FROM_ARGUMENT);
}

/**
 * Asks to send one request: the rule of src/ratelimit/sendWindow.ts (`askToSend`), step for step.
 * KEYS[1]: the budget's send log (sorted set: a member per request, scored with its turn or when
 * it went); KEYS[2]: its schedule (next due, ms); KEYS[3]: the deployment's pause-until (ms).
 * ARGV[1]: sends per window; ARGV[2]: window (ms); ARGV[3]: spacing (ms); ARGV[4]: the longest
 * pause the caller waits (ms); ARGV[5]: the request's member, unique across processes.
 * Returns {'send'}, {'turn', ms until it} (both with the entry in the log), {'wait', ms} (paused,
 * no entry) or {'paused', ms}.
 */
const ASK_TO_SEND = `
NOW
local sends = tonumber(ARGV[1])
local windowMs = tonumber(ARGV[2])
local function ms(x) return string.format('%.3f', x) end
local pausedUntil = tonumber(redis.call('GET', KEYS[3]) or '0')
if pausedUntil > now then
  if pausedUntil - now > tonumber(ARGV[4]) then return {'paused', ms(pausedUntil - now)} end
  return {'wait', ms(pausedUntil - now)}
end
redis.call('ZREM', KEYS[1], ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ms(now - windowMs))
local at = math.max(now, tonumber(redis.call('GET', KEYS[2]) or '0'))
local newest = redis.call('ZREVRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if #newest > 0 then at = math.max(at, tonumber(newest[2])) end
if redis.call('ZCARD', KEYS[1]) >= sends then
  local nth = redis.call('ZREVRANGE', KEYS[1], sends - 1, sends - 1, 'WITHSCORES')
  at = math.max(at, tonumber(nth[2]) + windowMs)
end
redis.call('ZADD', KEYS[1], ms(at), ARGV[5])
redis.call('PEXPIRE', KEYS[1], math.ceil(at - now + windowMs) + 1000)
local nextDue = at + tonumber(ARGV[3])
redis.call('SET', KEYS[2], ms(nextDue), 'PX', math.ceil(nextDue - now) + 1000)
if at > now then return {'turn', ms(at - now)} end
return {'send'}
`;

/**
 * Re-dates a request's entry to now as it goes, never earlier than its turn, and pushes the
 * schedule to (now + ARGV[2]) when that is later (`stampSend`). KEYS[1]: the send log; KEYS[2]:
 * the schedule; ARGV[1]: the request's member; ARGV[2]: spacing - forgiven lateness (ms).
 * Returns 1 when it moved.
 */
const STAMP_SEND = `
NOW
local at = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1]) or now)
if now <= at then return 0 end
redis.call('ZADD', KEYS[1], 'XX', string.format('%.3f', now), ARGV[1])
local nextDue = now + tonumber(ARGV[2])
if nextDue > tonumber(redis.call('GET', KEYS[2]) or '0') then
  redis.call('SET', KEYS[2], string.format('%.3f', nextDue), 'PX', math.ceil(nextDue - now) + 1000)
end
return 1
`;

/**
 * Pauses the deployment: pause-until becomes now + ARGV[1] ms unless it is already later.
 * KEYS[1]: the pause-until key. Returns the ms the pause lasts from now.
 */
const EXTEND_PAUSE = `
NOW
local untilMs = now + tonumber(ARGV[1])
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if untilMs > current then
  redis.call('SET', KEYS[1], string.format('%.3f', untilMs), 'PX', math.ceil(untilMs - now) + 1000)
  return math.ceil(untilMs - now)
end
return math.ceil(current - now)
`;

/** The three scripts, reading `now` from `clock`. */
export function rateLimitScripts(clock: ScriptClock = 'redis') {
  return {
    askToSend: withClock(ASK_TO_SEND, clock),
    stampSend: withClock(STAMP_SEND, clock),
    extendPause: withClock(EXTEND_PAUSE, clock),
  };
}
