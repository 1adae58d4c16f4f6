# Create a small Python package with a module and unittest tests, run the tests, fix a bug, rerun.
mkdir -p calc/tests
cat > calc/__init__.py <<'PY'
from .ops import add, mean
PY
cat > calc/ops.py <<'PY'
def add(a, b):
    return a + b


def mean(xs):
    return sum(xs) // len(xs)
PY
touch calc/tests/__init__.py
cat > calc/tests/test_ops.py <<'PY'
import unittest
from calc import add, mean


class OpsTest(unittest.TestCase):
    def test_add(self):
        self.assertEqual(add(2, 3), 5)

    def test_mean(self):
        self.assertEqual(mean([1, 2]), 1.5)
PY
python3 -m unittest discover -s calc/tests -t . 2>&1 | grep -E '^(FAIL:|OK|FAILED)'
echo "first run: ${PIPESTATUS[0]}"
sed -i 's|sum(xs) // len(xs)|sum(xs) / len(xs)|' calc/ops.py
python3 -m unittest discover -s calc/tests -t . 2>&1 | grep -E '^(FAIL:|OK|FAILED|Ran)' | sed 's/ in [0-9.]*s$//'
echo "second run: ${PIPESTATUS[0]}"
