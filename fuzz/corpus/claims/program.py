import torch
from a import b as c
data = f"{x.y} {z}"
def f(a, *b, k=1, **kw):
    return [i for i in a]
class C(B):
    x: int = 1
with open(p) as fh:
    pass
...
