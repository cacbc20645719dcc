// SPDX-License-Identifier: MIT
/*
 * Host tests of ipu-info's health and telemetry of a card
 * (tools/card_health.c) on a fake syspath: the driver's attributes
 * (docs/uapi.md "Health and telemetry (API 1.8)") and the hwmon sensors
 * under device/hwmon/hwmonM, shown as detail lines, JSON and gc-monitor's
 * table; missing files are unknown, never invented. The real driver's
 * files are checked in the VM (tests/driver/ipu_health_test.c,
 * tests/tools/ipudev_tools_vm.sh). Included by unit.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "card_health.h"

/* @dir/@name holds @text (a line of sysfs). */
static int put(const char *dir, const char *name, const char *text)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/* A card's syspath in @root: its attributes, and hwmon with @sensors. */
static int fake_card(char *root, bool sensors, const char *holder)
{
	char hw[256];

	if (!mkdtemp(root))
		return -1;
	snprintf(hw, sizeof(hw), "%s/device", root);
	mkdir(hw, 0755);
	snprintf(hw, sizeof(hw), "%s/device/hwmon", root);
	mkdir(hw, 0755);
	snprintf(hw, sizeof(hw), "%s/device/hwmon/hwmon3", root);
	mkdir(hw, 0755);
	if (sensors && (put(hw, "name", "ipu\n") ||
			put(hw, "temp1_input", "41250\n") ||
			put(hw, "temp1_max", "105000\n") ||
			put(hw, "temp1_crit", "115000\n") ||
			put(hw, "power1_input", "52300000\n")))
		return -1;
	return put(root, "utilisation", "37\n") ||
	       put(root, "health", "degraded\n") ||
	       put(root, "errors_dma", "2\n") ||
	       put(root, "errors_ring", "0\n") ||
	       put(root, "errors_fatal", "1\n") ||
	       put(root, "recoveries", "1\n") ||
	       put(root, "holder", holder) ? -1 : 0;
}

static char *render(const struct card_health *h, bool json)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	struct jw w;

	if (!f)
		return NULL;
	if (json) {
		jw_init(&w, f);
		jw_obj_begin(&w, NULL);
		print_card_health(f, &w, h);
		jw_obj_end(&w);
		jw_end(&w);
	} else {
		print_card_health(f, NULL, h);
	}
	fclose(f);
	return out;
}

static void rm_tree(const char *root)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", root);
}

/*
 * A fake card in @root (fake_card()) read as ipu-info reads it, rendered
 * as text into *@t and JSON into *@j (free() both): 0 or -1.
 */
static int read_fake(char *root, bool sensors, const char *holder,
		     struct card_health *h, char **t, char **j)
{
	struct ipu_card c;

	if (fake_card(root, sensors, holder))
		return -1;
	memset(&c, 0, sizeof(c));
	snprintf(c.syspath, sizeof(c.syspath), "%s", root);
	card_health_read(&c, h);
	*t = render(h, false);
	*j = render(h, true);
	return *t && *j ? 0 : -1;
}

TEST(health_tools_detail)
{
	char root[] = "/tmp/ipu-health-XXXXXX";
	struct card_health h;
	char *t, *j;

	ASSERT_EQ(0, read_fake(root, true, "412 0 my job\n", &h, &t, &j));
	EXPECT_TRUE(strstr(t, "average die temp: 41.2C\n") &&
		    strstr(t, "die temp max: 105.0C\n") &&
		    strstr(t, "die temp critical: 115.0C\n") &&
		    strstr(t, "ipu power: 52.3W\n") &&
		    strstr(t, "ipu utilisation: 37%\n") &&
		    strstr(t, "ipu health: degraded\n") &&
		    strstr(t, "dma errors: 2\n") && strstr(t, "fatal errors: 1\n") &&
		    strstr(t, "recoveries: 1\n") &&
		    strstr(t, "user process id: 412\n") &&
		    strstr(t, "user id: 0\n") && strstr(t, "user name: root\n") &&
		    strstr(t, "user command: my job\n")) TH_LOG("%s", t);
	EXPECT_TRUE(strstr(j, "\"die_temp_mc\": 41250,") &&
		    strstr(j, "\"ipu_power_uw\": 52300000,") &&
		    strstr(j, "\"ipu_health\": \"degraded\",") &&
		    strstr(j, "\"user_process_id\": 412,") &&
		    strstr(j, "\"user_command\": \"my job\"")) TH_LOG("%s", j);
	free(t);
	free(j);
	rm_tree(root);
}

/* No hwmon, nobody attached, a holder line that does not parse. */
TEST(health_tools_unknown)
{
	char root[] = "/tmp/ipu-health-XXXXXX", root2[] = "/tmp/ipu-health-XXXXXX";
	struct ipu_card c;
	struct card_health h;
	char *t, *j;

	ASSERT_EQ(0, read_fake(root, false, "\n", &h, &t, &j));
	EXPECT_TRUE(strstr(t, "average die temp: n/a\n") &&
		    strstr(t, "ipu power: n/a\n") &&
		    strstr(t, "ipu utilisation: 37%\n") &&
		    strstr(t, "user process id: n/a\n") &&
		    strstr(t, "user name: n/a\n")) TH_LOG("%s", t);
	EXPECT_TRUE(strstr(j, "\"die_temp_mc\": null,") &&
		    strstr(j, "\"user_process_id\": null,") &&
		    strstr(j, "\"user_command\": null")) TH_LOG("%s", j);
	free(t);
	free(j);
	rm_tree(root);

	ASSERT_EQ(0, fake_card(root2, false, "garbage\n"));
	memset(&c, 0, sizeof(c));
	snprintf(c.syspath, sizeof(c.syspath), "%s", root2);
	card_health_read(&c, &h);
	EXPECT_FALSE(h.held);
	rm_tree(root2);
	/* A card without the attributes at all (an older driver). */
	snprintf(c.syspath, sizeof(c.syspath), "%s", root2);
	card_health_read(&c, &h);
	EXPECT_TRUE(!h.have_util && !h.have_errors && !h.have_recoveries &&
		    !h.health[0] && !h.held && !h.have_temp);
}

/* gc-monitor's table: a header and a row a card, the holder last. */
TEST(health_tools_table)
{
	char root[] = "/tmp/ipu-health-XXXXXX";
	struct ipu_card c[2];
	struct card_health h[2];
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	ASSERT_EQ(0, fake_card(root, true, "412 0 my job\n"));
	memset(c, 0, sizeof(c));
	c[0].id = 0;
	c[1].id = 1;
	snprintf(c[0].model_name, sizeof(c[0].model_name), "gc200");
	snprintf(c[0].syspath, sizeof(c[0].syspath), "%s", root);
	snprintf(c[1].syspath, sizeof(c[1].syspath), "%s/none", root);
	card_health_read(&c[0], &h[0]);
	card_health_read(&c[1], &h[1]);
	f = open_memstream(&out, &len);
	ASSERT_TRUE(f != NULL);
	print_health_table(f, c, h, 2);
	fclose(f);
	EXPECT_TRUE(!strncmp(out, "ID  MODEL  TEMP   POWER  UTIL  HEALTH ", 37) &&
		    strstr(out, "\n0   gc200  41.2C  52.3W  37%   degraded  2/0/1 ") &&
		    strstr(out, "  412  root  my job\n") &&
		    strstr(out, "\n1   -      -      -      -     -         -  "))
		TH_LOG("%s", out);
	free(out);
	rm_tree(root);
}
