"""Multi-head attention scene: the row view's sentences (where each head looks, the one-row compromise, the
pair of heads on different words), the text view's lines (the query, each head's largest weight) and the
d_k = 1 note, checked against the weights the scene reports."""
import re

import numpy as np

LONG = " ".join(["Refund the delivery fee, not the cake."] * 40)  # 320 tokens
QUERIES = [
    "?scene=mha",
    "?scene=mha&heads_view=text&row=2",
    "?scene=mha&heads_view=text&head=1&causal=1&row=5",
    "?scene=mha&d_model=16&heads=16&causal=1",  # F6: peaks on 3 to 6 keys with the mask
    "?scene=mha&d_model=16&heads=16",
    "?scene=mha&d_model=16&heads=16&positions=alibi&row=3",
    "?scene=mha&d_model=16&heads=16&positions=rope&causal=1&row=8",
    "?scene=mha&causal=1&row=0",  # F14: the first token sees only itself
    "?scene=mha&causal=1&row=8",
    "?scene=mha&d_model=64&heads=2&positions=rope&row=5",
    "?scene=mha&d_model=64&heads=1&positions=none&row=2",
    "?scene=mha&d_model=512&heads=16&positions=learned&row=8",
    "?scene=mha&d_model=512&heads=4&positions=alibi&causal=1&row=4",
    "?scene=mha&text=Refund",
    "?scene=mha&text=Refund&causal=1&heads=16&d_model=64",
    "?scene=mha&d_model=64&heads=4&causal=1&row=319&text=" + LONG.replace(" ", "%20"),
    "?scene=mha&d_model=16&heads=16&row=0&text=" + LONG.replace(" ", "%20"),
    "?scene=mha&heads=2&row=1023&text=" + "%20".join(f"w{i}" for i in range(1024)),  # the longest text
]
TRAINED_QUERIES = ["?scene=mha&model=trained&row=3", "?scene=mha&model=trained&row=0"]

TOL = 0.006  # printed with 2 decimals


def labels_of(tokens):
    seen, out = {}, []
    for t in tokens:
        seen[t] = seen.get(t, 0) + 1  # the sentences here quote short words, never cut
        out.append(t if seen[t] == 1 else f"{t}#{seen[t]}")
    return out


def visible_keys(causal, row, t):
    return row + 1 if causal else t


def check_row_sentence(c, w, row, labels, causal):
    """The first sentence under the row view: where each head puts most weight."""
    heads, t = w.shape
    top = w.argmax(axis=1)
    starts = ("The only head", "All ", "Heads disagree", "With the causal mask", "The text has one token")
    found = [x for x in c.texts if x.startswith(starts)]
    if len(found) != 1:
        return c.fail(f"{len(found)} row sentences: {found}")
    s = found[0]
    who = f"'{labels[row]}'"
    if visible_keys(causal, row, t) == 1:
        c.says(s, re.compile(r"agree"), False, "where only one key can be seen")
        if t == 1:
            c.says(s, "one token", True, "for a one-token text")
        else:
            c.says(s, "can only see itself", True, "for the causal first row")
        if not np.allclose(w[:, row], 1.0, atol=1e-5):
            c.fail("a row with one visible key does not put all its weight on it")
        return
    if heads == 1:
        c.says(s, f"The only head puts most of {who}'s weight on '{labels[top[0]]}' ({w[0, top[0]]:.2f})", True)
        return
    agree = bool((top == top[0]).all())
    c.says(s, f"All {heads} heads agree on where {who} looks: most weight on '{labels[top[0]]}'", agree)
    if not agree:
        for h in range(heads):
            m = re.search(rf"(?:head {h} puts most weight on|, head {h} on) '(.+?)' \(([0-9.]+)\)", s)
            if not m:
                c.fail(f"head {h} missing from: {s}")
            elif m.group(1) != labels[top[h]] or abs(float(m.group(2)) - w[h, top[h]]) > TOL:
                c.fail(f"head {h} peaks on {labels[top[h]]!r} ({w[h, top[h]]:.3f}), not as said in: {s}")


def check_compromise(c, w, row, labels, causal):
    """M132: one head's peak and what its row has left for every other word."""
    heads, t = w.shape
    found = [x for x in c.texts if x.startswith("A row sums to 1")]
    if visible_keys(causal, row, t) == 1:
        if found:
            c.fail(f"a compromise sentence where only one key is visible: {found}")
        return
    if len(found) != 1:
        return c.fail(f"{len(found)} paragraphs start with 'A row sums to 1'")
    m = re.search(r"head (\d+) puts ([0-9.]+) on '(.+?)', so only ([0-9.]+) is left", found[0])
    if not m:
        return c.fail(f"unreadable: {found[0]}")
    h, x, word, rest = int(m.group(1)), float(m.group(2)), m.group(3), float(m.group(4))
    peak = w.max(axis=1)
    if h >= heads or peak[h] < peak.max() - 1e-6:
        c.fail(f"head {h} is not the head with the highest peak ({peak.argmax()}): {found[0]}")
        return
    j = int(w[h].argmax())
    others = w[h].sum() - w[h, j]
    if word != labels[j] or abs(x - w[h, j]) > TOL or abs(rest - others) > 2 * TOL:
        c.fail(f"head {h} puts {w[h, j]:.4f} on {labels[j]!r}, {others:.4f} elsewhere: {found[0]}")


def best_pair(w):
    """The pair of heads peaking on different keys with the largest smaller peak, or None."""
    top, peak = w.argmax(axis=1), w.max(axis=1)
    best = None
    for a in range(len(top)):
        for b in range(a + 1, len(top)):
            if top[a] != top[b] and (best is None or min(peak[a], peak[b]) > best[0]):
                best = (min(peak[a], peak[b]), a, b)
    return best


def check_pair(c, w, labels, trained):
    """M138: the two heads whose peaks are on different words, and whether they reach the lesson's 0.9."""
    best = best_pair(w)
    s = c.paragraph_if("Several heads", best is not None, "(a pair needs two heads peaking on different keys)")
    if s is None:
        return
    m = re.search(r"head (\d+) puts ([0-9.]+) on '(.+?)' while head (\d+) puts ([0-9.]+) on '(.+?)'", s)
    if not m:
        return c.fail(f"unreadable: {s}")
    a, xa, wa, b, xb, wb = int(m.group(1)), float(m.group(2)), m.group(3), int(m.group(4)), float(
        m.group(5)), m.group(6)
    top, peak = w.argmax(axis=1), w.max(axis=1)
    for h, x, word in ((a, xa, wa), (b, xb, wb)):
        if word != labels[top[h]] or abs(x - peak[h]) > TOL:
            c.fail(f"head {h} peaks on {labels[top[h]]!r} ({peak[h]:.3f}), not as said: {s}")
    if top[a] == top[b]:
        c.fail(f"heads {a} and {b} peak on the same key: {s}")
    if min(peak[a], peak[b]) < best[0] - 1e-6:
        c.fail(f"heads {best[1]} and {best[2]} are a better pair ({best[0]:.3f}): {s}")
    low = round(best[0], 2) < 0.9  # the weights as printed
    c.says(s, "in no pair do both reach the lesson's 0.9", low)
    c.says(s, ", both reaching the lesson's 0.9", not low)
    c.says(s, "untrained heads rarely do", low and not trained)


def check_rows(c):
    row = c.shown.get("row")
    if not row:
        return c.fail("no row reported")
    w = np.array(row["weights"], dtype=np.float64)  # (H, T)
    labels = labels_of(c.shown["tokens"])
    causal = bool(c.shown["causal"])
    r = row["token"]
    if not np.allclose(w.sum(axis=1), 1.0, atol=1e-4):
        c.fail("a head's row does not sum to 1")
    check_row_sentence(c, w, r, labels, causal)
    check_compromise(c, w, r, labels, causal)
    check_pair(c, w, labels, c.shown.get("model", "random") != "random")


def peak_counts(weights):
    """(H,): how many different keys the rows of each head peak on."""
    return [len(set(np.asarray(h).argmax(axis=1).tolist())) for h in weights]


def check_narrow_heads(c):
    """F6: at d_k = 1 the note says how many keys the rows peak on, and why when it is more than two."""
    general = c.paragraph("Every row costs the same")
    if general is None:
        return
    c.says(general, "without the causal mask", True, "(the two-keys argument needs every row to see every key)")
    s = c.paragraph_if("Here dₖ = 1", c.shown.get("d_k") == 1, f"(d_k = {c.shown.get('d_k')})")
    if s is None:
        return
    if "weights" not in c.shown:
        return  # over 64 tokens the weights are not reported
    n = peak_counts(c.shown["weights"])
    lo, hi = min(n), max(n)
    said = re.search(r"peak on (\d+)(?: to (\d+))? different key", s)
    if not said:
        return c.fail(f"unreadable: {s}")
    if (int(said.group(1)), int(said.group(2) or said.group(1))) != (lo, hi):
        c.fail(f"the heads' rows peak on {lo} to {hi} different keys: {s}")
    alibi = c.shown["positions"] == "alibi"
    if not c.shown["causal"] and not alibi and hi > 2:
        c.fail(f"without the mask and ALiBi a d_k = 1 head's rows peaked on {hi} keys")
    c.says(s, "causal mask", hi > 2 and bool(c.shown["causal"]), "(the reason for more than two peaks)")
    c.says(s, "ALiBi", hi > 2 and alibi, "(the reason for more than two peaks)")


def check_roles(c):
    """N17-19: the roles trained heads have been found to take include the verb for its subject."""
    p = c.paragraph("Nobody assigns a head its job")
    if p is not None:
        c.says(p, re.compile(r"verb"), True, "(the interview notes' grammar role)")


def check_text_view(c):
    """The text view's line about the shading names the query; each head's title its largest weight."""
    tv = c.shown.get("text_view")
    c.paragraph_if("Each word is shaded by how much the query", bool(tv), "(the heads are shown as grids)")
    if not tv:
        return
    words = c.shown["tokens"]  # the sweep's tokens are short: shown whole
    w = np.array(c.shown["row"]["weights"], dtype=np.float64)  # (H, T)
    q = tv["query"]
    if q != c.shown["row"]["token"]:
        c.fail(f"the text view's query {q} is not the row view's {c.shown['row']['token']}")
    c.says(c.paragraph("Each word is shaded by how much the query"), f"'{words[q]}' (token {q},", True,
           "(the query)")
    for h, hi in zip(tv["heads"], tv["hi"]):
        s = c.paragraph(f"head {h} puts most weight on ")
        if s is None:
            continue
        m = re.fullmatch(rf"head {h} puts most weight on '(.*)' \(token (\d+)\): ([0-9.]+)", s)
        if not m:
            c.fail(f"unreadable: {s}")
            continue
        top = int(w[h].argmax())
        said = int(m.group(2))
        if said != top or m.group(1) != words[top] or abs(float(m.group(3)) - w[h, top]) > TOL:
            c.fail(f"head {h} puts most weight on {words[top]!r} (token {top}, {w[h, top]:.3f}), not as said: {s}")
        if abs(hi - w[h, top]) > 1e-6:
            c.fail(f"head {h}'s words are shaded up to {hi}, not its largest weight {w[h, top]}")


def check(c):
    check_rows(c)
    check_text_view(c)
    check_narrow_heads(c)
    check_roles(c)
