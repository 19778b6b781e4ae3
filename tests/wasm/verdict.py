"""The end of a native-vs-wasm comparison (compare.py, compare_train.py): its verdict and exit status."""


def verdict(failures, what, ok):
    """Prints the number of failures (called `what`) and the first ten of them, and returns 1; with none,
    prints `ok` and returns 0."""
    if failures:
        print(f"FAIL: {len(failures)} {what}; first ones:")
        for line in failures[:10]:
            print("  " + line)
        return 1
    print(ok)
    return 0
