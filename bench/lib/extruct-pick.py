"""The plain off-the-shelf picker bench/product-corpus.js scores revisit against (issue 37).

extruct (Debian's python3-extruct) extracts each markup as it is; this takes the first
Product's first offer, in the order JSON-LD, microdata, RDFa, then Open Graph's price tags,
as a user of extruct would write it in a few lines. Reads file paths (.html or .html.gz),
one a line, on stdin; writes one JSON line per file: file, from, price, currency, availability.
"""
import gzip, json, re, sys
import extruct

def first(value):
    return value[0] if isinstance(value, list) and value else value

def scalar(value):
    value = first(value)
    if isinstance(value, dict):
        return value.get('@value', value.get('@id'))
    return value

def number(value):
    text = re.sub(r'[^\d.,]', '', str(scalar(value) or ''))
    if ',' in text and '.' in text:
        text = text.replace(',' if text.index(',') < text.index('.') else '.', '')
    try:
        return float(text.replace(',', '.'))
    except ValueError:
        return None

def short(value):
    value = scalar(value)
    return re.split(r'[/#]', value.strip())[-1] if isinstance(value, str) and value.strip() else None

def local(item):
    """An RDFa node with its properties named as in JSON-LD (http://schema.org/price -> price)."""
    return {(re.split(r'[/#]', key)[-1] if key.startswith('http') else key): value for key, value in item.items()}

def walk(items):
    for item in items if isinstance(items, list) else [items]:
        if isinstance(item, dict):
            yield item
            for key in ('@graph', 'mainEntity', 'itemListElement'):
                yield from walk(item.get(key, []))

def is_product(item):
    types = item.get('@type', [])
    return any(short(t) == 'Product' for t in (types if isinstance(types, list) else [types]))

def pick(html):
    data = extruct.extract(html, syntaxes=['json-ld', 'microdata', 'rdfa', 'opengraph'], uniform=True, errors='ignore')
    rdfa = [local(item) for item in data.get('rdfa', [])]
    by_id = {item.get('@id'): item for item in rdfa}
    for source, items in (('json-ld', data.get('json-ld', [])), ('microdata', data.get('microdata', [])), ('rdfa', rdfa)):
        product = next((item for item in walk(items) if is_product(item)), None)
        if product is None:
            continue
        offer = first(product.get('offers'))
        if isinstance(offer, dict) and source == 'rdfa' and '@id' in offer:
            offer = by_id.get(offer['@id'], offer)
        if not isinstance(offer, dict):
            return {'from': source}
        price = offer.get('price') or offer.get('lowPrice') or (first(offer.get('priceSpecification')) or {}).get('price')
        currency = offer.get('priceCurrency') or (first(offer.get('priceSpecification')) or {}).get('priceCurrency')
        return {'from': source, 'price': number(price), 'currency': scalar(currency), 'availability': short(offer.get('availability'))}
    for og in data.get('opengraph', []):
        price = og.get('product:price:amount') or og.get('og:price:amount')
        if price:
            words = {'in stock': 'InStock', 'instock': 'InStock', 'out of stock': 'OutOfStock', 'oos': 'OutOfStock', 'preorder': 'PreOrder', 'pending': 'PreOrder'}
            availability = og.get('product:availability') or og.get('og:availability')
            return {'from': 'opengraph', 'price': number(price), 'currency': og.get('product:price:currency') or og.get('og:price:currency'), 'availability': words.get(str(availability).lower(), availability)}
    return {}

for line in sys.stdin:
    path = line.strip()
    if not path:
        continue
    raw = open(path, 'rb').read()
    html = (gzip.decompress(raw) if path.endswith('.gz') else raw).decode('utf-8', 'replace')
    try:
        result = pick(html)
    except Exception as error:  # a page extruct cannot read gives no offer, as for a user
        result = {'error': str(error)[:200]}
    print(json.dumps({'file': path, **result}, ensure_ascii=False), flush=True)
