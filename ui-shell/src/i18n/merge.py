"""Merges keys into the shell's base-language catalogues.

    python3 ui-shell/src/i18n/merge.py <file.tsv> <subtree>   replace <subtree> with the TSV's keys
    python3 ui-shell/src/i18n/merge.py <file.tsv> --keys       set each key (full dotted path), keep the rest

The TSV has columns key, pt, en, es, de, fr, it, pl, ru (keys relative to the subtree, or full
paths with --keys). Only base languages are written: a regional catalogue (pt-br, en-gb, en-us,
es-419) holds just the texts whose wording differs from its base, edited by hand. Each screen
keeps its strings in its own TSV, so several people can change the catalogues without clashing."""
import json, os, sys
if len(sys.argv) != 3: sys.exit(__doc__)
tsv, subtree = sys.argv[1], sys.argv[2]
loc = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'locales')
cols = ['pt', 'en', 'es', 'de', 'fr', 'it', 'pl', 'ru']
rows = [l.rstrip('\n').split('\t') for l in open(tsv, encoding='utf8') if l.strip() and not l.startswith('#')]
for r in rows:
    if len(r) != 9: sys.exit(f'bad row {r[0]}: {len(r)} columns')
for col in cols:
    path = os.path.join(loc, col + '.json')
    data = json.load(open(path, encoding='utf8'))
    if subtree == '--keys':
        target = data
    else:
        data[subtree] = {}
        target = data[subtree]
    for r in rows:
        node = target
        parts = r[0].split('.')
        for p in parts[:-1]: node = node.setdefault(p, {})
        node[parts[-1]] = r[1 + cols.index(col)]
    tmp = path + '.tmp'
    with open(tmp, 'w', encoding='utf8') as out:
        json.dump(data, out, ensure_ascii=False, indent=2)
        out.write('\n')
    os.replace(tmp, path)
