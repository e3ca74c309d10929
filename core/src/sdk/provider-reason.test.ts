import { describe, expect, it } from 'vitest';
import { providerReason } from './channel.ts';

describe('providerReason', () => {
  it('says network failures in Portuguese, naming what to check (issue U2 #13)', () => {
    expect(providerReason('request to https://graph.facebook.com/v20.0/123/messages failed, reason: getaddrinfo ENOTFOUND graph.facebook.com', 300)).toBe(
      'Endereço do provedor não encontrado (graph.facebook.com): confira a URL configurada e a conexão com a internet',
    );
    expect(providerReason('connect ECONNREFUSED 10.0.0.5:443')).toBe('O provedor recusou a conexão (10.0.0.5:443): o serviço está fora do ar ou o endereço está errado');
    expect(providerReason('TypeError: fetch failed')).toBe('Falha de rede ao falar com o provedor');
    expect(providerReason('socket hang up')).toBe('A conexão com o provedor caiu no meio do envio; tente de novo');
  });
  it("keeps the provider's own words otherwise", () => {
    expect(providerReason('(#131026) Message undeliverable')).toBe('(#131026) Message undeliverable');
  });
});
