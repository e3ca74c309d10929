import { definePlugin, pageOffset, principalOf, toPage } from '@atende/core/sdk';
import { contract, RATING_LABELS, ratingsAnswer, ratingsQuery } from './contract.ts';

/**
 * Ratings (avaliações, core.md §3 and §9): what customers answered to the
 * rating request sent on resolve, on the 0–5 scale, with the averages a
 * supervisor looks at. The kernel asks and records; its configuration is
 * `GET|PUT /tenants/rating`; this plugin lists and summarises.
 */

export { RATING_LABELS };

export default definePlugin({
  id: 'ratings',
  kind: 'feature',
  name: 'Avaliações',
  description: 'Avaliações dos atendimentos (0 a 5) com filtros e médias; configuração do pedido de avaliação.',
  contract,
  menus: [{ key: 'evaluations', label: 'menu.evaluations', route: '/avaliacoes', profiles: ['super', 'admin', 'superadmin'], userMenu: 'evaluations' }],
  ui: true,
  register(ctx) {
    ctx.http.get(
      '/ratings',
      {
        config: { access: { menu: 'evaluations' } },
        schema: { operationId: 'listRatings', tags: ['ratings'], summary: 'Lista as avaliações com médias e distribuição das notas', querystring: ratingsQuery, response: { 200: ratingsAnswer } },
      },
      async (req) => {
        const q = req.query;
        const r = await ctx.agentTools.ratings(principalOf(req).tenantId, { ...q, offset: pageOffset(q) });
        return { ...r, ...toPage(r.rows, r.count, q), labels: [...RATING_LABELS] };
      },
    );
  },
});
