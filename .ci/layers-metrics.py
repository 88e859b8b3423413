# usage: metrics.py SRC_ROOT TABLE_LIB_RS [LOWER_SRC_ROOT...]  -> lines per layer (non-test) and
# functions over 80 lines. LOWER_SRC_ROOT: the source roots of crates whose modules SRC_ROOT's
# lib.rs re-exports at its root (their lib.rs skipped); by default every crate folder beside
# SRC_ROOT's (harness/src: harness/sandbox/src, layers 1 and 2 as a crate of their own).
import glob,os,re,sys
root,lib=sys.argv[1],sys.argv[2]
lower=sys.argv[3:] or sorted(os.path.dirname(l) for l in glob.glob(os.path.join(os.path.dirname(os.path.abspath(root)),'*','src','lib.rs')))
layers=[]
for line in open(lib):
    m=re.match(r'\s*//!\s*(\d+)\. ([^:]+):(.*?)—',line)
    if m: layers.append((m.group(2).strip(),re.findall(r'`([a-z_]+)`',m.group(3))))
layer_of={m:n for n,(_,ms) in enumerate(layers) for m in ms}
def strip_tests(src):
    # cut #[cfg(test)] items: a `mod x;` line or a braced item
    out=[];i=0;lines=src.split('\n');skip_files=[]
    res=[];k=0
    while k<len(lines):
        l=lines[k]
        if re.match(r'\s*#\[cfg\((all\()?test',l):
            j=k+1
            while j<len(lines) and lines[j].strip().startswith('#['): j+=1
            if re.match(r'\s*(pub )?mod \w+;',lines[j]):
                skip_files.append(re.match(r'\s*(?:pub )?mod (\w+);',lines[j]).group(1)); k=j+1; continue
            depth=0;started=False
            while j<len(lines):
                code=braces_only(lines[j])
                depth+=code.count('{')-code.count('}')
                if '{' in code: started=True
                if started and depth<=0: break
                if not started and lines[j].rstrip().endswith(';'): break
                j+=1
            k=j+1; continue
        res.append(l); k+=1
    return res,skip_files
def braces_only(line):
    # a line's code without its string and char literals and its // comment, whose braces
    # are not the function's ("{seed" in a format string once made parse look 617 lines long)
    line=re.sub(r'"(\\.|[^"\\])*"','""',line)
    line=re.sub(r"'(\\.|[^'\\])'","''",line)
    return line.split('//')[0]
per=[0]*len(layers); other={}
long_fns=[]
files=[]
shown_root={}
for r in [root]+lower:
    for d,_,fs in os.walk(r):
        for f in fs:
            if not f.endswith('.rs'): continue
            if r!=root and os.path.join(d,f)==os.path.join(r,'lib.rs'): continue
            files.append(os.path.join(d,f)); shown_root[files[-1]]=r
skip=set()
data={}
for f in files:
    lines,sk=strip_tests(open(f).read())
    data[f]=lines
    base=f[:-3] if not f.endswith(('mod.rs','lib.rs')) else os.path.dirname(f)
    for s in sk: skip.add(os.path.join(base,s+'.rs')); skip.add(os.path.join(base,s,'mod.rs'))
for f in sorted(files):
    if f in skip: continue
    rel=os.path.relpath(f,shown_root[f]); top=rel.split('/')[0].removesuffix('.rs')
    lines=data[f]
    if top in layer_of: per[layer_of[top]]+=len(lines)
    else: other[top]=other.get(top,0)+len(lines)
    # functions over 80 lines (body from the fn line to its closing brace)
    k=0
    while k<len(lines):
        m=re.match(r'\s*(pub(\([^)]*\))? )?(const )?(async )?(unsafe )?(extern "C" )?fn (\w+)',lines[k])
        if m:
            depth=0;started=False;j=k
            while j<len(lines):
                code=braces_only(lines[j])
                depth+=code.count('{')-code.count('}')
                if '{' in code: started=True
                if started and depth<=0: break
                if not started and lines[j].rstrip().endswith(';'): break
                j+=1
            if started and j-k+1>80: long_fns.append((j-k+1,rel,m.group(7)))
        k+=1
for n,(name,ms) in enumerate(layers): print(f'{n+1:2}. {name:8} {per[n]:6}  ({", ".join(ms)})')
for t,v in other.items(): print('    not in table:',t,v)
print('total',sum(per)+sum(other.values()))
print('functions over 80 lines:',len(long_fns))
for x in sorted(long_fns,reverse=True): print('   ',*x)
