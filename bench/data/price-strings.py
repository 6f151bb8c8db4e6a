#!/usr/bin/env python3
"""Converts Zyte's price-parser test examples into bench/data/price-strings.json.

Source: tests/test_price_parsing.py of https://github.com/scrapinghub/price-parser
(Copyright (c) Scrapinghub, BSD-3-Clause; see bench/data/README.md).

    python3 bench/data/price-strings.py PRICE_PARSER_GIT_DIR > bench/data/price-strings.json

PRICE_PARSER_GIT_DIR is a clone of the repository (or its git directory): the script reads
tests/test_price_parsing.py and LICENSE at its HEAD with `git show`, and records the commit
and the license text in the JSON's header. The test file is read with `ast` only (nothing of it is imported or run). Every `Example(...)` in
a list named PRICE_PARSING_* becomes one record; the lists Zyte marks xfail (its parser is
known to get them wrong) go to "xfail", the others to "examples".
"""
import ast
import subprocess
import json
import sys
from decimal import Decimal

FIELDS = ["currency_raw", "price_raw", "currency", "amount_text", "amount", "decimal_separator"]
XFAIL_LISTS = {"PRICE_PARSING_EXAMPLES_XFAIL", "PRICE_PARSING_EXAMPLES_XFAIL_CURRENCIES_TO_BE_ADDED"}


def literal(node):
    # Decimal("1.11000000000000009770") is the one call the examples hold besides Example.
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Decimal":
        return float(Decimal(ast.literal_eval(node.args[0])))
    return ast.literal_eval(node)


def records(list_node, name):
    for element in list_node.elts:
        if not (isinstance(element, ast.Call) and getattr(element.func, "id", None) == "Example"):
            continue
        values = [literal(arg) for arg in element.args]
        values += [None] * (len(FIELDS) - len(values))
        record = {"list": name, **dict(zip(FIELDS, values))}
        for keyword in element.keywords:
            if keyword.arg == "decimal_separator":
                record["decimal_separator"] = literal(keyword.value)
        if record["amount"] is not None:
            record["amount"] = float(record["amount"])
        if record["decimal_separator"] is None:
            del record["decimal_separator"]
        yield record


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, text=True).stdout


def main(repo):
    commit = git(repo, "rev-parse", "HEAD").strip()
    tree = ast.parse(git(repo, "show", "HEAD:tests/test_price_parsing.py"))
    examples, xfail = [], []
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.List)):
            continue
        name = node.targets[0].id
        if not name.startswith("PRICE_PARSING_"):
            continue
        (xfail if name in XFAIL_LISTS else examples).extend(records(node.value, name))
    out = {
        "source": "https://github.com/scrapinghub/price-parser tests/test_price_parsing.py",
        "commit": commit,
        "license": "BSD-3-Clause, Copyright (c) Scrapinghub",
        "license_text": git(repo, "show", "HEAD:LICENSE"),
        "converted_by": "python3 bench/data/price-strings.py PRICE_PARSER_GIT_DIR > bench/data/price-strings.json",
        "fields": "currency_raw: a currency hint (text near the price, may be null); price_raw: the text; "
        "currency: the currency as written, null if none; amount_text: the number as written; amount: the value, null if no price",
        "examples": examples,
        "xfail": xfail,
    }
    json.dump(out, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
