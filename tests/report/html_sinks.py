#!/usr/bin/env python3
"""The HTML pages' sinks (src/report/html.h, "the page's writer"): every value reaches a page through
mg_html, whose conversions are escaped, and nothing else writes a value onto a page.

  html_sinks.py FILE.c...     the findings, one per line (file:line: what), exit 1 if any
  html_sinks.py --selftest    the rules on snippets that must and must not be found

In every file but html.c (the writer itself):
- no fprintf, printf, vfprintf, dprintf, fputc, putc, putchar, puts, fwrite, fputws, mg_rp_esc;
- fputs only of a string literal (or a ?: of literals): the code's markup;
- mg_html's format is a literal (or a ?: of literals); an argument is never a literal holding
  markup (< > & " ': it would come out escaped, and the way out must not be a raw writer);
- in a format, a %s or %c is never an unquoted attribute value (=%s), nor inside an on...=, style=,
  or an href=/src=/action= that does not start with '#', nor inside <script> or <style>; a format
  never ends in an unquoted attribute ("<td class=");
- mg_html_markup only of a static string constant of the same file, or on a line that says
  "built markup:" (the code's own markup, made at run time).
A format is read on its own: a tag or quoted attribute opened by an earlier call is not seen (its
value is escaped all the same; the contexts above are what escaping cannot make safe).
"""
import re
import sys

FORBIDDEN = {"fprintf", "printf", "vfprintf", "vprintf", "dprintf", "vdprintf", "fputc", "putc", "putchar",
             "puts", "fwrite", "fputws", "fputwc", "putwc", "mg_rp_esc", "fputs_unlocked", "fwrite_unlocked"}
WRITERS = {"mg_html": 1, "mg_html_v": 1}  # the format's argument index

TOKEN = re.compile(r'''
    (?P<ws>\s+)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<pp>\#[^\n]*(?:\\\n[^\n]*)*)
  | (?P<str>(?:u8|[uUL])?"(?:\\.|[^"\\\n])*")
  | (?P<chr>'(?:\\.|[^'\\\n])+')
  | (?P<id>[A-Za-z_]\w*)
  | (?P<num>\.?\d[\w.]*(?:[eEpP][+-]\w+)?)
  | (?P<op>->|\+\+|--|<<=|>>=|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|.)
''', re.S | re.X)


def lex(src):
    """Tokens (kind, text, line) without whitespace, comments and preprocessor lines."""
    out, line, pos = [], 1, 0
    while pos < len(src):
        m = TOKEN.match(src, pos)
        kind = m.lastgroup
        text = m.group()
        if kind not in ("ws", "comment", "pp"):
            out.append((kind, text, line))
        line += text.count("\n")
        pos = m.end()
    return out


def args_of(toks, i):
    """The arguments (token lists) of the call whose '(' is toks[i], and the index after its ')'."""
    depth, cur, args = 0, [], []
    j = i
    while j < len(toks):
        t = toks[j][1]
        if t in "([{":
            depth += 1
            if depth == 1:
                j += 1
                continue
        elif t in ")]}":
            depth -= 1
            if depth == 0:
                args.append(cur)
                return args, j + 1
        elif t == "," and depth == 1:
            args.append(cur)
            cur = []
            j += 1
            continue
        cur.append(toks[j])
        j += 1
    return args, j


def split_top(toks, sep):
    """toks split at the first top-level sep: (before, after) or None."""
    depth = 0
    for k, t in enumerate(toks):
        if t[1] in "([{":
            depth += 1
        elif t[1] in ")]}":
            depth -= 1
        elif t[1] == sep and depth == 0:
            return toks[:k], toks[k + 1:]
    return None


def literals(toks):
    """The string literals a ?: of literals can be (each the concatenation of its pieces), None when
    the expression is anything else (a value)."""
    while len(toks) >= 2 and toks[0][1] == "(" and toks[-1][1] == ")" and args_of(toks, 0)[1] == len(toks):
        toks = toks[1:-1]
    if toks and all(t[0] == "str" for t in toks):
        return ["".join(unquote(t[1]) for t in toks)]
    q = split_top(toks, "?")
    if q is None:
        return None
    # a ? b : c ? d : e -- the branches after the first top-level '?'
    rest = q[1]
    depth, colon = 0, None
    nested = 0
    for k, t in enumerate(rest):
        if t[1] in "([{":
            depth += 1
        elif t[1] in ")]}":
            depth -= 1
        elif depth == 0 and t[1] == "?":
            nested += 1
        elif depth == 0 and t[1] == ":":
            if nested:
                nested -= 1
            else:
                colon = k
                break
    if colon is None:
        return None
    a, b = literals(rest[:colon]), literals(rest[colon + 1:])
    return None if a is None or b is None else a + b


def unquote(s):
    s = re.sub(r'^(u8|[uUL])?"', "", s)[:-1]
    return re.sub(r'\\(["\'\\?abfnrtv]|x[0-9a-fA-F]+|[0-7]{1,3})',
                  lambda m: {"n": "\n", "t": "\t", "r": "\r"}.get(m.group(1), m.group(1)
                                                                    if m.group(1) in "\"'\\?" else " "), s)


CONV = re.compile(r"%[-+ #0']*(?:\*|\d+)?(?:\.(?:\*|\d+))?(?:hh|h|ll|l|L|z|j|t|q)?([a-zA-Z%])")


def open_attr(before):
    """(name, value so far, quote) of the quoted attribute value the end of before is in, else None."""
    lt, gt = before.rfind("<"), before.rfind(">")
    if lt <= gt:
        return None
    tag, quote, name, start, k = before[lt:], None, None, 0, 0
    while k < len(tag):
        if quote:
            if tag[k] == quote:
                quote = None
        else:
            a = re.match(r'([\w:-]+)\s*=\s*(["\'])', tag[k:])
            if a:
                name, quote = a.group(1).lower(), a.group(2)
                k += a.end()
                start = k
                continue
        k += 1
    return (name, tag[start:], quote) if quote else None


def dangerous(name, value):
    """Why a value inside the attribute name="value..." is unsafe even escaped, else None."""
    if name.startswith("on"):
        return "in the event handler %s=" % name
    if name == "style":
        return "in a style= (CSS from data): pick the style with a literal"
    if name in ("href", "src", "action", "formaction", "xlink:href", "srcset") and not value.startswith("#"):
        return "in %s= without a leading '#' (a javascript: URL needs no markup)" % name
    return None


def format_findings(fmt):
    """What is wrong with one format literal: the contexts of its %s and %c."""
    found = []
    if re.search(r"<[^<>]*[\w-]\s*=\s*$", fmt):
        found.append("the format ends in an unquoted attribute (=): the next call's value would be unquoted")
    for m in CONV.finditer(fmt):
        if m.group(1) not in "sc":
            continue
        before = fmt[:m.start()]
        if re.search(r"=\s*$", before):
            found.append("'%s' is an unquoted attribute value (quote it: a space would start an attribute)" % m.group())
            continue
        low = before.lower()
        for el in ("script", "style"):
            if low.rfind("<" + el) > low.rfind("</" + el):
                found.append("'%s' inside <%s>: escaping does not make it safe there" % (m.group(), el))
        at = open_attr(before)
        if not at:
            continue  # element text (or a tag opened by an earlier call: not seen here)
        what = dangerous(*at[:2])
        if what:
            found.append("'%s' %s" % (m.group(), what))
    return found


def check_source(path, src):
    findings = []
    if path.endswith("/html.c") or path == "html.c":
        return findings
    lines = src.split("\n")
    toks = lex(src)
    constants = set()  # static const char NAME[] = "..." / static const char *const NAME = "..."
    for m in re.finditer(r'static\s+const\s+char\s*(?:\*\s*const\s+)?(\w+)\s*(?:\[\s*\])?\s*=\s*"', src):
        constants.add(m.group(1))
    pending = None  # (where, why): the last format left a dangerous attribute open
    for i, (kind, text, line) in enumerate(toks):
        if kind != "id" or i + 1 >= len(toks) or toks[i + 1][1] != "(":
            continue
        if i > 0 and toks[i - 1][1] in (".", "->"):
            continue
        where = "%s:%d" % (path, line)
        if text in FORBIDDEN:
            findings.append("%s: %s writes onto the page without the writer (use mg_html, html.h)" % (where, text))
            continue
        if text not in WRITERS and text not in ("fputs", "mg_html_markup"):
            continue
        args, _ = args_of(toks, i + 1)
        if text == "fputs":
            if not args or literals(args[0]) is None:
                findings.append("%s: fputs of a value (write it with mg_html(f, \"%%s\", ...), html.h)" % where)
            continue
        if text == "mg_html_markup":
            a = args[1] if len(args) > 1 else []
            ok = len(a) == 1 and a[0][0] == "id" and a[0][1] in constants
            if not ok and "built markup:" not in lines[line - 1]:
                findings.append("%s: mg_html_markup of something not a static string constant of this file "
                                "(say 'built markup: where from' on the line if the code built it)" % where)
            continue
        k = WRITERS[text]
        if len(args) <= k:
            findings.append("%s: %s without a format" % (where, text))
            continue
        fmts = literals(args[k])
        if fmts is None:
            findings.append("%s: %s's format is not a string literal (a value there would be markup)" % (where, text))
            continue
        for fmt in fmts:
            close = fmt.find(pending[2]) if pending else -1
            if pending and any(c.group(1) in "sc" and (close < 0 or c.start() < close) for c in CONV.finditer(fmt)):
                findings.append("%s: a %%s or %%c %s (opened at %s)" % (where, pending[1], pending[0]))
            for w in format_findings(fmt):
                findings.append("%s: %s" % (where, w))
        pending = None
        for fmt in fmts:  # a format that leaves such an attribute open: the next call must not put a value there
            at = open_attr(fmt)
            if at and dangerous(*at[:2]):
                pending = (where, dangerous(*at[:2]), at[2])
        for a in args[k + 1:]:
            lits = literals(a)
            for s in lits or []:
                if re.search(r"[<>&\"']", s):
                    findings.append("%s: the argument %r is markup given as a value: it comes out escaped (make it "
                                    "a format of its own)" % (where, s[:40]))
                    break
            # a literal branch of a ?: that has a value in its other branch
            for t in a:
                if t[0] == "str" and re.search(r"[<>&\"']", unquote(t[1])) and lits is None:
                    findings.append("%s: the argument %s holds markup given as a value (make it a format of its own)"
                                    % (where, t[1][:40]))
                    break
    return findings


BAD = {
    "fprintf of a value": 'void g(FILE *f, const char *s) { fprintf(f, "<td>%s</td>", s); }',
    "fputs of a value": 'void g(FILE *f, const char *s) { fputs(s, f); }',
    "fputc": 'void g(FILE *f, const char *s) { fputc(*s, f); }',
    "fwrite": 'void g(FILE *f, const char *s) { fwrite(s, 1, 3, f); }',
    "a format from data": 'void g(FILE *f, const char *s) { mg_html(f, s); }',
    "unquoted attribute": 'void g(FILE *f, const char *s) { mg_html(f, "<td class=%s>", s); }',
    "event handler": 'void g(FILE *f, const char *s) { mg_html(f, "<svg onload=\\"go(%s)\\">", s); }',
    "style": 'void g(FILE *f, const char *s) { mg_html(f, "<td style=\\"background:%s\\">", s); }',
    "href": 'void g(FILE *f, const char *s) { mg_html(f, "<a href=\\"%s\\">", s); }',
    "script": 'void g(FILE *f, const char *s) { mg_html(f, "<script>var a = \\"%s\\";", s); }',
    "markup as a value": 'void g(FILE *f, int x) { mg_html(f, "<circle%s/>", x ? " stroke=\\"#000\\"" : ""); }',
    "markup beside a value": 'void g(FILE *f, const char *s, int x) { mg_html(f, "<a%s>", x ? s : " b=\\"1\\""); }',
    "unquoted attribute across calls": 'void g(FILE *f, const char *s) { mg_html(f, "<td class="); mg_html(f, "%s", s); }',
    "style across calls": 'void g(FILE *f, const char *s) { mg_html(f, "<td style=\\"color:"); mg_html(f, "%s\\">", s); }',
    "markup of a value": 'void g(FILE *f, const char *s) { mg_html_markup(f, s); }',
    "the old escaper": 'void g(FILE *f, const char *s) { mg_rp_esc(f, s); }',
}
GOOD = {
    "literal fputs": 'void g(FILE *f, int x) { fputs("<td>", f); fputs(x ? "<b>" : "</b>", f); }',
    "quoted attribute and text": 'void g(FILE *f, const char *s) { mg_html(f, "<g data-alg=\\"%s\\" x=\\"%.2f\\">%s", s, 1.0, s); }',
    "a fragment": 'void g(FILE *f, const char *s) { mg_html(f, "<a href=\\"#%s-%d\\">", s, 4); }',
    "a number unquoted": 'void g(FILE *f) { mg_html(f, "<td class=n colspan=%d>", 6); }',
    "a ?: of formats": 'void g(FILE *f, int x) { mg_html(f, x ? "<b>%d</b>" : "<i>%d</i>", x); }',
    "a plain word as a value": 'void g(FILE *f, int x) { mg_html(f, "<td class=\\"%s\\">", x ? "a b" : ""); }',
    "the style sheet": 'static const char css[] = "body{}"; void g(FILE *f) { mg_html_markup(f, css); }',
    "built markup": 'void g(FILE *f, const char *m) { mg_html_markup(f, m); /* built markup: cells() */ }',
    "a literal style across calls": 'void g(FILE *f, int x) { mg_html(f, "<td style=\\"color:"); mg_html(f, x ? "#000" : "#fff"); mg_html(f, "\\">%s", "a"); }',
    "a comment": 'void g(FILE *f) { /* fprintf(f, s) */ mg_html(f, "%%s"); }',
}


def selftest():
    bad = 0
    for name, src in BAD.items():
        if not check_source("bad.c", src):
            print("selftest: not found: %s: %s" % (name, src))
            bad += 1
    for name, src in GOOD.items():
        got = check_source("good.c", src)
        if got:
            print("selftest: found in good code: %s: %s" % (name, got))
            bad += 1
    print("selftest: %d of %d cases right" % (len(BAD) + len(GOOD) - bad, len(BAD) + len(GOOD)))
    return 1 if bad else 0


def main(argv):
    if argv[1:] == ["--selftest"]:
        return selftest()
    if len(argv) < 2:
        print(__doc__)
        return 2
    findings = []
    for p in argv[1:]:
        with open(p, encoding="utf-8") as fh:
            findings += check_source(p, fh.read())
    for x in findings:
        print(x)
    print("html_sinks: %d file(s), %d finding(s)" % (len(argv) - 1, len(findings)))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
