"""Merges the `tickets.*` keys (tickets.tsv: key, pt, en, es, de, fr, it, pl, ru) into the 12 shell catalogues.
Only the `tickets` subtree is replaced; every other key is left as it is (other engineers edit the same files)."""
import json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
loc = os.path.join(here, '..', '..', '..', 'i18n', 'locales')
cols = ['pt', 'en', 'es', 'de', 'fr', 'it', 'pl', 'ru']
files = {'pt': 'pt', 'pt-br': 'pt', 'en': 'en', 'en-gb': 'en', 'en-us': 'en', 'es': 'es', 'es-419': 'es', 'de': 'de', 'fr': 'fr', 'it': 'it', 'pl': 'pl', 'ru': 'ru'}
rows = [l.rstrip('\n').split('\t') for l in open(os.path.join(here, 'tickets.tsv'), encoding='utf8') if l.strip()]
for r in rows:
    if len(r) != 9: sys.exit(f'bad row {r[0]}: {len(r)} columns')
for f, col in files.items():
    tree = {}
    for r in rows:
        node = tree
        parts = r[0].split('.')
        for p in parts[:-1]: node = node.setdefault(p, {})
        node[parts[-1]] = r[1 + cols.index(col)]
    path = os.path.join(loc, f + '.json')
    data = json.load(open(path, encoding='utf8'))
    data['tickets'] = tree
    tmp = path + '.tmp'
    with open(tmp, 'w', encoding='utf8') as out:
        json.dump(data, out, ensure_ascii=False, indent=2)
        out.write('\n')
    os.replace(tmp, path)
print('merged', len(rows), 'keys into', len(files), 'catalogues')
