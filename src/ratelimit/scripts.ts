/**
 * The shared limiter's Redis scripts. Times come from Redis' own clock (TIME), so processes on
 * machines whose clocks disagree still space their requests on one timeline. Times are stored as
 * milliseconds with three decimals, written with string.format: Lua's default number formatting
 * keeps only 14 significant digits.
 */

/**
 * Reserves the next slot of a budget (GCRA with no burst: strict spacing).
 * KEYS[1]: the budget's next free slot (ms); KEYS[2]: the deployment's pause-until (ms).
 * ARGV[1]: spacing between two requests (ms); ARGV[2]: the longest pause the caller will wait (ms).
 * Returns {0, ms to wait for the reserved slot}, or {1, ms the pause still lasts} without reserving
 * when that is longer than ARGV[2].
 */
export const RESERVE_SLOT_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local pausedUntil = tonumber(redis.call('GET', KEYS[2]) or '0')
if pausedUntil - now > tonumber(ARGV[2]) then
  return {1, math.ceil(pausedUntil - now)}
end
local slot = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0'), pausedUntil)
local nextSlot = slot + tonumber(ARGV[1])
redis.call('SET', KEYS[1], string.format('%.3f', nextSlot), 'PX', math.ceil(nextSlot - now) + 1000)
return {0, math.ceil(slot - now)}
`;

/**
 * Pauses the deployment: pause-until becomes now + ARGV[1] ms unless it is already later.
 * KEYS[1]: the pause-until key. Returns the ms the pause lasts from now.
 */
export const EXTEND_PAUSE_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local untilMs = now + tonumber(ARGV[1])
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if untilMs > current then
  redis.call('SET', KEYS[1], string.format('%.3f', untilMs), 'PX', math.ceil(untilMs - now) + 1000)
  return math.ceil(untilMs - now)
end
return math.ceil(current - now)
`;
