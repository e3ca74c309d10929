import type { Card, CardEvent, Column, View } from './api.ts';

/**
 * Pure updates of the board's columns. The server orders a column by
 * (lower(name), id) and pages it; a card entering a column is inserted at its
 * place when that place is inside the loaded part, otherwise only the count
 * changes and the card arrives with a later page.
 */

/** The columns a card belongs to in a view. */
export function columnsOf(view: View, c: { laneId: number | null; tagIds: number[] }): string[] {
  if (view === 'lanes') return [`lane:${c.laneId ?? 0}`];
  return c.tagIds.length ? c.tagIds.map((id) => `tag:${id}`) : ['tag:0'];
}

const tagIds = (card: Card) => card.tags.map((t) => t.id);

function compare(a: Card, b: Card): number {
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a.id - b.id;
}

function insertSorted(col: Column, card: Card): Card[] {
  const cards = col.cards.filter((c) => c.id !== card.id);
  const at = cards.findIndex((c) => compare(card, c) < 0);
  if (at === -1) {
    // After the last loaded card: only ours if the column is fully loaded.
    return col.nextCursor ? cards : [...cards, card];
  }
  return [...cards.slice(0, at), card, ...cards.slice(at)];
}

/**
 * Applies a card change. `countsDone` is true when this browser already moved
 * the card itself (its optimistic move), so the counts are not changed twice.
 */
export function applyCardEvent(columns: Column[], view: View, e: CardEvent, countsDone = false): Column[] {
  const before = new Set(columnsOf(view, e.before));
  const after = new Set(columnsOf(view, { laneId: e.card.laneId, tagIds: tagIds(e.card) }));
  return columns.map((col) => {
    const was = before.has(col.key);
    const is = after.has(col.key);
    if (!was && !is) {
      // Not ours by the event's account; drop a stale copy (e.g. an optimistic move that lost a race).
      return col.cards.some((c) => c.id === e.card.id) ? { ...col, cards: col.cards.filter((c) => c.id !== e.card.id) } : col;
    }
    if (was && is) return { ...col, cards: col.cards.map((c) => (c.id === e.card.id ? e.card : c)) };
    if (was) {
      return { ...col, count: countsDone ? col.count : Math.max(0, col.count - 1), cards: col.cards.filter((c) => c.id !== e.card.id) };
    }
    return { ...col, count: countsDone ? col.count : col.count + 1, cards: insertSorted(col, e.card) };
  });
}

/** What a drop from one column onto another means for the card, before the server answers. */
export function optimisticCard(view: View, card: Card, from: Column, to: Column): Card {
  if (view === 'lanes') return { ...card, laneId: to.id === 0 ? null : to.id };
  const kept = card.tags.filter((t) => t.id !== from.id);
  const added = to.id === 0 ? [] : [{ id: to.id, name: to.name, color: to.color ?? '#868E96' }];
  return { ...card, tags: [...kept.filter((t) => t.id !== to.id), ...added] };
}

export function appendPage(columns: Column[], key: string, page: { cards: Card[]; nextCursor: string | null }): Column[] {
  return columns.map((col) => {
    if (col.key !== key) return col;
    const seen = new Set(col.cards.map((c) => c.id));
    return { ...col, cards: [...col.cards, ...page.cards.filter((c) => !seen.has(c.id))], nextCursor: page.nextCursor };
  });
}
