# A Python module with a dataclass, imported by a script and by a doctest run.
cat > inventory.py <<'PY'
"""A tiny inventory.

>>> inv = Inventory()
>>> inv.add("bolt", 3); inv.add("bolt", 2)
>>> inv.count("bolt")
5
>>> inv.remove("nut")
Traceback (most recent call last):
    ...
KeyError: 'nut'
"""
from dataclasses import dataclass, field


@dataclass
class Inventory:
    items: dict = field(default_factory=dict)

    def add(self, name, n=1):
        self.items[name] = self.items.get(name, 0) + n

    def remove(self, name):
        del self.items[name]

    def count(self, name):
        return self.items.get(name, 0)
PY
python3 -m doctest inventory.py && echo "doctest ok"
python3 -c 'from inventory import Inventory; i = Inventory(); i.add("x"); print(i)'
ls
