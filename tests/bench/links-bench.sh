# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
## the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
!# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
/# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
b# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
/# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done

# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
## the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
G# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
u# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
d# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
f# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
`# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
m# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
a# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
k# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
b# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
l# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
k# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
`# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
(# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
m# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
k# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
/# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
b# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
.# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
m# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
k# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
)# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
:# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
a# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
M# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
2# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
0# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
0# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
0# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
V# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
M# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
(# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
4# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
a# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
r# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
d# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done

# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
## the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
a# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
f# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
a# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
b# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
r# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
,# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
p# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
l# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
g# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
y# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
m# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
2# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
0# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
0# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
0# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
)# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
,# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
r# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
u# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
f# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
r# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
m# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
a# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
r# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
(# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
w# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
d# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
)# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
b# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
y# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
l# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
/# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
p# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
u# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
v# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
m# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
;# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done

# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
## the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
w# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
r# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
r# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
l# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
k# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
.# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
j# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
(# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
p# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
u# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
b# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
l# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
k# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
:# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
v# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
r# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
y# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
l# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
k# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
d# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
p# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
a# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
r# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
)# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
,# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done

# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
## the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
y# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
0# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
.# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
j# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
a# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
d# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
y# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
6# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
.# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
j# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
(# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
p# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
u# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
b# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
y# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
a# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
r# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
d# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
0# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done

# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
## the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
a# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
d# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
g# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
r# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
u# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
p# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
f# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
f# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
u# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
r# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
)# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
a# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
d# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
u# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
l# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
l# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
.# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
j# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
(# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
p# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
u# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
b# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
'# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
u# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
l# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
l# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
l# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
,# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done

# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
## the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
b# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
a# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
l# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
f# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
y# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
l# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
a# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
y# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
)# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
.# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done

# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
u# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done

# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
r# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
=# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
0# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done

# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
## the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
l# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
k# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
r# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
a# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
m# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
u# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
l# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
a# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
d# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
m# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
a# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
f# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
r# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
p# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
w# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
r# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
:# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
w# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
a# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
f# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
r# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
g# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
r# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
u# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
p# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
f# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
f# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
u# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
r# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done

# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
=# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
0# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done

# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
u# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
l# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
p# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
u# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
f# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
l# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
2# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
># the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
/# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
d# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
v# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
/# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
u# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
l# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
l# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
|# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
g# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
r# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
p# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
q# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
'# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
^# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
*# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
6# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
'# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
;# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
d# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done

# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
	# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
[# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
$# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
g# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
1# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
0# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
0# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
]# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
&# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
&# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
{# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
"# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
l# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
k# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
b# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
:# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
M# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
2# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
0# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
0# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
0# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
'# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
l# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
k# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
d# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
d# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
m# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
u# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
p# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
"# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
># the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
&# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
2# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
;# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
p# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
u# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
l# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
k# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
># the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
&# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
2# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
;# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
b# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
r# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
a# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
k# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
;# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
}# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done

# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
	# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
l# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
p# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
0# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
.# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
1# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done

# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
	# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
=# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
$# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
(# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
(# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
+# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
1# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
)# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
)# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done

# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
d# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done

# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
p# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
u# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
b# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
l# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
k# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
j# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
># the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
l# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
k# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
.# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
j# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
|# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
|# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
r# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
=# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
1# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done

# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
p# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
u# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
b# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
y# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
d# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
0# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
j# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
># the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
y# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
0# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
.# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
j# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
|# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
|# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
r# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
=# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
1# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done

# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
p# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
u# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
b# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
y# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
d# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
6# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
j# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
># the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
y# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
6# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
.# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
j# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
|# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
|# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
r# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
=# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
1# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done

# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
p# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
u# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
b# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
h# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
d# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
0# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
j# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
m# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
4# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
K# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
m# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
a# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
x# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
4# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
K# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
k# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
m# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
a# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
p# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
p# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
d# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
1# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
0# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
-# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
4# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
0# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
9# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
5# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
># the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
u# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
l# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
l# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
.# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
j# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
o# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
|# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
|# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
r# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
=# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
1# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done

# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
s# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
y# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
n# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done

# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
e# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
x# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
i# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
t# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
 # the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
$# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
r# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
c# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done

# the links train in emulated time after power-on: wait until all are up
i=0
until ipu-links --json | grep -q '"overall_result": "passed"'; do
	[ $i -ge 100 ] && { echo "links-bench: the M2000's links did not come up" >&2; ipu-links >&2; break; }
	sleep 0.1
	i=$((i + 1))
done
