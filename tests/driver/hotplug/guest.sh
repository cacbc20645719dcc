#!/bin/sh
# Guest side of tests/driver/hotplug/run.sh: keep card 3 busy through the library
# (ipu-run) and hold card 2 with every kind of DMA mapping
# (ipu-hotplug-holder), wait for both to be unplugged, then check that the
# holder closed cleanly and the other cards still work.
cd /tmp || exit 1
ipu-mkgraph -m test -s 4096 -i . add g.ipug || exit 1
ipu-run -d 3 g.ipug --in a=a.npy --in b=b.npy --count 100000000 >run.log 2>&1 &
run=$!
ipu-hotplug-holder 2 /mnt/host/held >/mnt/host/holder.log 2>&1 &
holder=$!
# Readers of card 2's sensors and health attributes across its unplug (API
# 1.8): the files go with the card; reads in flight end (a value or an
# error), never an oops (the kernel log is checked) or a hang.
hw=$(ls -d /sys/class/ipu/ipu2/device/hwmon/hwmon* 2>/dev/null | head -1)
[ -n "$hw" ] || { echo "card 2 has no hwmon device"; exit 1; }
( while [ -e "$hw/name" ]; do
	cat "$hw/temp1_input" "$hw/power1_input" /sys/class/ipu/ipu2/health \
		/sys/class/ipu/ipu2/errors_dma /sys/class/ipu/ipu2/holder >/dev/null 2>&1
done; echo done >/tmp/reader.done ) &
reader=$!
sleep 1
kill -0 $run || { echo "ipu-run ended early:"; cat run.log; exit 1; }
touch /mnt/host/busy
i=0
while { [ -e /sys/class/ipu/ipu3 ] || [ -e /sys/class/ipu/ipu2 ]; } && [ $i -lt 900 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -e /sys/class/ipu/ipu3 ] && { echo "card 3 is still there"; exit 1; }
[ -e /sys/class/ipu/ipu2 ] && { echo "card 2 is still there"; exit 1; }
wait $run
echo "ipu-run on the removed card exited $?: $(tail -1 run.log)"
wait $reader
[ -f /tmp/reader.done ] || { echo "the sensor reader did not end"; exit 1; }
echo "the sensor reader ended with card 2"
wait $holder
hrc=$?
cat /mnt/host/holder.log
[ $hrc = 0 ] || { echo "the holder failed ($hrc)"; exit 1; }
ipu-info | grep -q "IPU-SN-0003" && { echo "ipu-info still lists card 3"; exit 1; }
ipu-info | grep -q "IPU-SN-0002" && { echo "ipu-info still lists card 2"; exit 1; }
ipu-info >/dev/null || exit 1
ipu-mkgraph -i . add g0.ipug && ipu-run -d 0 g0.ipug --in a=a.npy --in b=b.npy >/dev/null
