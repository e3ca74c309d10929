import { describe, expect, it } from 'vitest';
import { sliceFormatted, toTelegram } from './formatting.ts';

const show = (input: string) => {
  const f = toTelegram(input);
  return { text: f.text, marked: f.entities.map((e) => `${e.type}:${f.text.slice(e.offset, e.offset + e.length)}`) };
};

describe('WhatsApp-style markup to Telegram entities', () => {
  it("turns the agent's signature into a bold name without asterisks", () => {
    expect(show('*Davi Atendente*:\nEntregamos sim!')).toEqual({ text: 'Davi Atendente:\nEntregamos sim!', marked: ['bold:Davi Atendente'] });
  });

  it('handles italic, strike, nesting and several spans', () => {
    expect(show('_Olá_ *Maria*, o pedido ~antigo~ foi *_cancelado_*.')).toEqual({
      text: 'Olá Maria, o pedido antigo foi cancelado.',
      marked: ['italic:Olá', 'bold:Maria', 'strikethrough:antigo', 'bold:cancelado', 'italic:cancelado'],
    });
  });

  it('leaves markers that are not formatting as typed', () => {
    for (const plain of ['2 * 3 * 4', 'arquivo_final_v2.pdf', 'a*b*c', '* item', 'preço: 5*', 'snake_case_name', '**', '~ ~']) {
      expect(show(plain)).toEqual({ text: plain, marked: [] });
    }
  });

  it('does not format inside code, and counts offsets in UTF-16 like Telegram', () => {
    expect(show('use `*ptr*` e ```\nx = *y*\n```')).toEqual({ text: 'use *ptr* e \nx = *y*\n', marked: ['code:*ptr*', 'pre:\nx = *y*\n'] });
    const f = toTelegram('😀 *oi* 👍');
    expect(f.text).toBe('😀 oi 👍');
    expect(f.entities).toEqual([{ type: 'bold', offset: 3, length: 2 }]);
  });

  it('cuts entities to a part of a long text', () => {
    const f = toTelegram(`*${'a'.repeat(10)}* fim`);
    expect(sliceFormatted(f, 5, 12)).toEqual({ text: 'aaaaa f', entities: [{ type: 'bold', offset: 0, length: 5 }] });
    expect(sliceFormatted(f, 11, 14)).toEqual({ text: 'fim', entities: [] });
  });
});
