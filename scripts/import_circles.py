"""Import circles between the modules of each crate: every `crate::`, `super::` and `self::`
path of a file's code (its tests left out) is an edge to the longest module it names, and a
strongly connected set of more than one module is a circle. Prints each circle and exits 1
when there is one.

    python3 scripts/import_circles.py src crates/*/src
"""
import os, re, sys, collections


def modpath(root, f):
    rel=os.path.relpath(f,root)[:-3]
    parts=rel.split('/')
    if parts[-1] in ('mod','lib','main'): parts=parts[:-1]
    return tuple(parts)
def strip_tests(src):
    i=src.find('#[cfg(test)]')
    return src if i<0 else src[:i]
def analyze(root):
    files=[]
    for dp,dn,fn in os.walk(root):
        for f in fn:
            if f.endswith('.rs'): files.append(os.path.join(dp,f))
    mods={modpath(root,f):f for f in files}
    edges=collections.defaultdict(set)
    for m,f in mods.items():
        name=os.path.basename(f)
        if name=='tests.rs' or name.endswith('_tests.rs') or '/tests/' in f: continue
        src=strip_tests(open(f).read())
        src='\n'.join(l for l in src.split('\n') if not l.strip().startswith('//'))
        is_modrs = name in ('mod.rs','lib.rs','main.rs')
        for mm in re.finditer(r'\b(crate|super|self)((?:::[A-Za-z_][A-Za-z_0-9]*)+)',src):
            kind=mm.group(1); path=[p for p in mm.group(2).split('::') if p]
            if kind=='crate': base=()
            elif kind=='self': base=m if is_modrs else m
            else:
                base=m[:-1] if not is_modrs else m[:-1]
                if kind=='super' and not is_modrs: base=m[:-1]
            # consume further supers
            while path and path[0]=='super': base=base[:-1]; path=path[1:]
            # find longest module prefix
            cand=base
            best=None
            for i in range(len(path)+1):
                t=base+tuple(path[:i])
                if t in mods: best=t
            if best and best!=m and not (len(best)<len(m) and m[:len(best)]==best):
                edges[m].add(best)
            elif best and best!=m and len(best)<len(m) and m[:len(best)]==best and best!=():
                # import from an ancestor module (e.g. super::X from child): counts as edge
                edges[m].add(best)
    # tarjan
    index={};low={};st=[];on=set();sccs=[];c=[0]
    sys.setrecursionlimit(10000)
    def sc(v):
        index[v]=low[v]=c[0];c[0]+=1;st.append(v);on.add(v)
        for w in edges.get(v,()):
            if w not in index: sc(w); low[v]=min(low[v],low[w])
            elif w in on: low[v]=min(low[v],index[w])
        if low[v]==index[v]:
            comp=[]
            while True:
                w=st.pop();on.discard(w);comp.append(w)
                if w==v: break
            if len(comp)>1: sccs.append(comp)
    for v in mods:
        if v not in index: sc(v)
    return sccs,edges
def main(roots):
    found = 0
    for root in roots:
        sccs, _ = analyze(root)
        for s in sccs:
            found += 1
            print(root, ' <-> '.join('::'.join(x) or 'ROOT' for x in sorted(s)))
    return found


if __name__ == "__main__":
    sys.exit(1 if main(sys.argv[1:]) else 0)
