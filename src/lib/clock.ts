// The service's "now" (epoch milliseconds) for what it stores and decides: expiry, grace,
// trials and first-validation clocks, scans, sharing and self-release windows, the delivery
// schedule, record timestamps. Production reads the system clock; a test moves it with
// useTestClock() (test/helpers/clock.ts), and the app started in the test's process follows.
// Left on the system clock on purpose: time shared with the outside world (TOTP codes,
// JWT lifetimes that jose checks, webhook signature timestamps) and real durations
// (timeouts, cache ages, waits for the database), which a moved clock must not stretch.
// A property holding a function, not a class: the validation path calls it per request,
// and a plain call allocates nothing.
export const clock: { now: () => number } = { now: Date.now };
