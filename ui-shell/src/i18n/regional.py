"""Rewrites each regional catalogue (pt-br, en-gb, en-us, es-419) as its differences from its
base language: keys whose text equals the base's, and keys the base no longer has, are dropped.

    python3 ui-shell/src/i18n/regional.py

Run it after merging catalogue changes; i18next reads the base for every key a regional
catalogue leaves out."""
import json, os
loc = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'locales')
def load(n): return json.load(open(os.path.join(loc, n + '.json'), encoding='utf8'))
def diff(base, reg):
    out = {}
    for k, v in reg.items():
        if k not in base: continue
        if isinstance(v, dict):
            d = diff(base[k] if isinstance(base[k], dict) else {}, v)
            if d: out[k] = d
        elif base[k] != v: out[k] = v
    return out
for reg, base in [('pt-br', 'pt'), ('en-gb', 'en'), ('en-us', 'en'), ('es-419', 'es')]:
    out = diff(load(base), load(reg))
    with open(os.path.join(loc, reg + '.json'), 'w', encoding='utf8') as f:
        json.dump(out, f, ensure_ascii=False, indent=2)
        f.write('\n')
