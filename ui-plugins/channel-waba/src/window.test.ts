import { describe, expect, it } from 'vitest';
import { WINDOW_MS, windowState } from './window.ts';

describe('WhatsApp 24-hour window', () => {
  const now = Date.parse('2026-11-26T12:00:00Z');
  it('is open for 24 hours after the customer\'s last message, closed after, and unknown without data', () => {
    expect(windowState('2026-11-26T02:00:00Z', now)).toEqual({ state: 'open', closesAt: Date.parse('2026-11-26T02:00:00Z') + WINDOW_MS });
    expect(windowState('2026-11-25T12:00:00Z', now)).toEqual({ state: 'closed', lastAt: Date.parse('2026-11-25T12:00:00Z') });
    expect(windowState('2026-11-23T09:30:00Z', now).state).toBe('closed');
    expect(windowState(null, now)).toEqual({ state: 'never' });
    expect(windowState(undefined, now)).toEqual({ state: 'unknown' });
    expect(windowState('not a date', now)).toEqual({ state: 'unknown' });
  });
});
