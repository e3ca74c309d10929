"""Merges one screen's keys into the 12 shell catalogues.

    python3 ui-shell/src/i18n/merge.py <file.tsv> <subtree>

The TSV has columns key, pt, en, es, de, fr, it, pl, ru (keys relative to the subtree).
Only `<subtree>` is replaced; every other key is left as it is, so each screen keeps its
strings in its own TSV and several people can change the catalogues without clashing."""
import json, os, sys
if len(sys.argv) != 3: sys.exit(__doc__)
tsv, subtree = sys.argv[1], sys.argv[2]
loc = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'locales')
cols = ['pt', 'en', 'es', 'de', 'fr', 'it', 'pl', 'ru']
files = {'pt': 'pt', 'pt-br': 'pt', 'en': 'en', 'en-gb': 'en', 'en-us': 'en', 'es': 'es', 'es-419': 'es', 'de': 'de', 'fr': 'fr', 'it': 'it', 'pl': 'pl', 'ru': 'ru'}
rows = [l.rstrip('\n').split('\t') for l in open(tsv, encoding='utf8') if l.strip()]
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
    data[subtree] = tree
    tmp = path + '.tmp'
    with open(tmp, 'w', encoding='utf8') as out:
        json.dump(data, out, ensure_ascii=False, indent=2)
        out.write('\n')
    os.replace(tmp, path)
print('merged', len(rows), subtree, 'keys into', len(files), 'catalogues')
