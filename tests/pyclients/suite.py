"""The cases of one client's test: @suite.case runs a function at once as a
case, which passes unless it raises; suite.done() prints "NAME: N passed,
N failed" and exits with failure if any failed."""
import sys
import traceback


class Suite:
    def __init__(self, name):
        self.name = name
        self.passed = self.failed = 0

    def result(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        print(f"{'PASS' if ok else 'FAIL'} {self.name}: {what}")

    def case(self, fn):
        try:
            fn()
        except Exception:
            self.result(False, fn.__name__)
            traceback.print_exc(limit=3, file=sys.stdout)
        else:
            self.result(True, fn.__name__)
        return fn

    def done(self):
        print(f"{self.name}: {self.passed} passed, {self.failed} failed")
        sys.exit(1 if self.failed else 0)
