import { describe, expect, it } from 'vitest';
import { MEDIA_TYPES, cleanFileName, mediaRuleFor, mimeTypeOf } from './media.ts';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
const PDF = Buffer.from('%PDF-1.7\n');
const EXE = Buffer.from('MZ\x90\x00\x03', 'latin1');

describe('media allow-list', () => {
  it('accepts listed extensions with a matching or generic declared type', () => {
    expect(mediaRuleFor('foto.PNG', 'image/png')?.kind).toBe('image');
    expect(mediaRuleFor('audio.ogg', 'audio/ogg; codecs=opus')?.kind).toBe('audio');
    expect(mediaRuleFor('doc.pdf', 'application/octet-stream')?.kind).toBe('document');
  });

  it('refuses unlisted extensions and declared types that contradict the extension', () => {
    expect(mediaRuleFor('virus.exe', 'application/octet-stream')).toBeUndefined();
    expect(mediaRuleFor('script.svg', 'image/svg+xml')).toBeUndefined();
    expect(mediaRuleFor('page.html', 'text/html')).toBeUndefined();
    expect(mediaRuleFor('foto.png', 'application/pdf')).toBeUndefined();
    expect(mediaRuleFor('semextensao', 'image/png')).toBeUndefined();
  });

  it('checks the first bytes against the format', () => {
    expect(MEDIA_TYPES.png.sniff(PNG)).toBe(true);
    expect(MEDIA_TYPES.png.sniff(EXE)).toBe(false);
    expect(MEDIA_TYPES.pdf.sniff(PDF)).toBe(true);
    expect(MEDIA_TYPES.pdf.sniff(PNG)).toBe(false);
    expect(MEDIA_TYPES.txt.sniff(Buffer.from('olá'))).toBe(true);
    expect(MEDIA_TYPES.txt.sniff(EXE)).toBe(false);
  });

  it('cleans names and derives the served type from the extension', () => {
    expect(cleanFileName('C:\\Users\\x\\"boleto".pdf')).toBe('boleto.pdf');
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('')).toBe('arquivo');
    expect(mimeTypeOf('/media/1/2026-01/abc-tabela.xlsx?s=x')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(mimeTypeOf('sem-tipo')).toBeNull();
  });
});
