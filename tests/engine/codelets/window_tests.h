/* SPDX-License-Identifier: MIT */
/*
 * Tests of the sliding-window codelets (codelets_window.c): Im2Col,
 * Col2Im, MaxPool, AvgPool, MaxPoolGrad, AvgPoolGrad, bit for bit against
 * per-tap references written from docs/codelets.md ("Sliding windows"),
 * over random geometries (windows starting inside the image, blocks of
 * positions starting mid-row, stride, dilation, padding, f16 for Im2Col),
 * their negative cases and cycle counts. Included by test_codelets.c.
 */

struct wgeo {
	uint32_t C, goff, W, wh, KH, KW, SY, SX, DY, DX, PT, PL, OW, wy0, p0, P;
};

static void wgeo_params(const struct wgeo *g, uint32_t p[8])
{
	p[0] = g->C | g->goff << 16, p[1] = g->W | g->wh << 16, p[2] = g->KH | g->KW << 16;
	p[3] = g->SY | g->SX << 16, p[4] = g->DY | g->DX << 16, p[5] = g->PT | g->PL << 16;
	p[6] = g->OW | g->wy0 << 16, p[7] = g->p0;
}

/* the window element tap (ky, kx) of position q of the block reads, or -1 (padding) */
static long wtap(const struct wgeo *g, uint32_t c, uint32_t q, uint32_t ky, uint32_t kx)
{
	uint32_t pos = g->p0 + q;
	long r = (long)(pos / g->OW * g->SY + ky * g->DY) - g->PT - g->wy0;
	long x = (long)(pos % g->OW * g->SX + kx * g->DX) - g->PL;

	if (r < 0 || r >= g->wh || x < 0 || x >= g->W)
		return -1;
	return ((long)c * g->wh + r) * g->W + x;
}

static struct wgeo wgeo_random(int pool)
{
	struct wgeo g;

	g.C = 1 + rndn(4), g.goff = 0, g.W = 1 + rndn(20), g.wh = rndn(8);
	g.KH = 1 + rndn(4), g.KW = 1 + rndn(4), g.SY = 1 + rndn(3), g.SX = 1 + rndn(3);
	g.DY = pool ? 1 : 1 + rndn(2), g.DX = pool ? 1 : 1 + rndn(2);
	g.PT = rndn(3), g.PL = rndn(3), g.OW = 1 + rndn(12), g.wy0 = rndn(4);
	g.p0 = rndn(3 * g.OW), g.P = rndn(40);
	return g;
}

static void win_fill(float *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		v[i] = (float)(rndu() * 2 - 1);
}

static void t_window_im2col(bool f16)
{
	for (int t = 0; t < 300; t++) {
		struct wgeo g = wgeo_random(0);
		uint32_t p[8], K = g.C * g.KH * g.KW, nin = g.C * g.wh * g.W;
		uint8_t dt = f16 ? IPU_DTYPE_F16 : IPU_DTYPE_F32;
		size_t es = f16 ? 2 : 4;
		uint8_t *in = xalloc(nin * es), *col = xalloc((size_t)K * g.P * es);

		fill_random(in, nin, dt, 0);
		memset(col, 0x7f, (size_t)K * g.P * es);	/* garbage the codelet must overwrite */
		wgeo_params(&g, p);
		struct ipue_field f[2] = { fld(in, nin, dt), fld(col, K * g.P, dt) };

		if (!run_ok(IPUE_CODELET_IM2COL, f, 2, p, 8))
			for (uint32_t c = 0; c < g.C; c++)
				for (uint32_t k = 0; k < g.KH * g.KW; k++)
					for (uint32_t q = 0; q < g.P; q++) {
						long i = wtap(&g, c, q, k / g.KW, k % g.KW);
						const uint8_t *got = col + (((size_t)c * g.KH * g.KW + k) * g.P + q) * es;
						static const uint8_t zero[4];

						EXPECT(!memcmp(got, i < 0 ? zero : in + (size_t)i * es, es),
						       "im2col c%u k%u q%u (tap %ld) wrong", c, k, q, i);
					}
		free(in);
		free(col);
	}
}

static void t_window_col2im(void)
{
	for (int t = 0; t < 300; t++) {
		struct wgeo g = wgeo_random(0);
		uint32_t p[8], K = g.C * g.KH * g.KW, nout = g.C * g.wh * g.W;
		float *col = xalloc((size_t)K * g.P * 4), *out = xalloc(nout * 4), *ref = xalloc(nout * 4);

		win_fill(col, (size_t)K * g.P);
		win_fill(out, nout);	/* overwritten */
		memset(ref, 0, nout * 4);
		for (uint32_t c = 0; c < g.C; c++)	/* the documented order: (c, ky, kx), then q */
			for (uint32_t k = 0; k < g.KH * g.KW; k++)
				for (uint32_t q = 0; q < g.P; q++) {
					long i = wtap(&g, c, q, k / g.KW, k % g.KW);

					if (i >= 0)
						ref[i] += col[((size_t)c * g.KH * g.KW + k) * g.P + q];
				}
		wgeo_params(&g, p);
		struct ipue_field f[2] = { fld(col, K * g.P, IPU_DTYPE_F32), fld(out, nout, IPU_DTYPE_F32) };

		if (!run_ok(IPUE_CODELET_COL2IM, f, 2, p, 8))
			for (uint32_t i = 0; i < nout; i++)
				EXPECT(ulp_diff_f32(out[i], ref[i]) == 0, "col2im out[%u] = %a want %a", i, out[i], ref[i]);
		free(col);
		free(out);
		free(ref);
	}
}

/* MaxPool's pick for position q of channel c: first maximum, the first NaN wins; -1: none */
static long max_ref(const struct wgeo *g, const float *x, uint32_t c, uint32_t q)
{
	long best = -1;

	for (uint32_t k = 0; k < g->KH * g->KW; k++) {
		long i = wtap(g, c, q, k / g->KW, k % g->KW);

		if (i >= 0 && (best < 0 || x[i] > x[best] || (x[i] != x[i] && x[best] == x[best])))
			best = i;
	}
	return best;
}

static void t_window_pool_case(struct wgeo g, const float *x)
{
	uint32_t p[8], nin = g.C * g.wh * g.W, n = g.C * g.P;
	float *mx = xalloc(n * 4), *av = xalloc(n * 4), *dy = xalloc(n * 4);
	float *gm = xalloc(nin * 4), *ga = xalloc(nin * 4), *rm = xalloc(nin * 4), *ra = xalloc(nin * 4);
	float k = (float)(g.KH * g.KW);

	win_fill(dy, n);
	memset(rm, 0, nin * 4);
	memset(ra, 0, nin * 4);
	wgeo_params(&g, p);
	struct ipue_field fm[2] = { fld((void *)x, nin, IPU_DTYPE_F32), fld(mx, n, IPU_DTYPE_F32) };
	struct ipue_field fa[2] = { fld((void *)x, nin, IPU_DTYPE_F32), fld(av, n, IPU_DTYPE_F32) };
	struct ipue_field fgm[3] = { fm[0], fld(dy, n, IPU_DTYPE_F32), fld(gm, nin, IPU_DTYPE_F32) };
	struct ipue_field fga[2] = { fld(dy, n, IPU_DTYPE_F32), fld(ga, nin, IPU_DTYPE_F32) };
	int bad = run_ok(IPUE_CODELET_MAX_POOL, fm, 2, p, 8) | run_ok(IPUE_CODELET_AVG_POOL, fa, 2, p, 8) |
		  run_ok(IPUE_CODELET_MAX_POOL_GRAD, fgm, 3, p, 8) | run_ok(IPUE_CODELET_AVG_POOL_GRAD, fga, 2, p, 8);

	for (uint32_t c = 0; c < g.C && !bad; c++)
		for (uint32_t q = 0; q < g.P; q++) {
			long b = max_ref(&g, x, c, q);
			float s = 0, d = dy[c * g.P + q] / k;

			for (uint32_t t = 0; t < g.KH * g.KW; t++) {
				long i = wtap(&g, c, q, t / g.KW, t % g.KW);

				if (i >= 0)
					s += x[i], ra[i] += d;
			}
			if (b >= 0)
				rm[b] += dy[c * g.P + q];
			EXPECT(b < 0 ? mx[c * g.P + q] == -INFINITY : !memcmp(&mx[c * g.P + q], &x[b], 4) ||
			       (x[b] != x[b] && mx[c * g.P + q] != mx[c * g.P + q]), "maxpool c%u q%u", c, q);
			EXPECT(ulp_diff_f32(av[c * g.P + q], s / k) == 0, "avgpool c%u q%u %a want %a", c, q,
			       av[c * g.P + q], s / k);
		}
	for (uint32_t i = 0; i < nin && !bad; i++) {
		EXPECT(ulp_diff_f32(gm[i], rm[i]) == 0, "maxpoolgrad [%u] %a want %a", i, gm[i], rm[i]);
		EXPECT(ulp_diff_f32(ga[i], ra[i]) == 0, "avgpoolgrad [%u] %a want %a", i, ga[i], ra[i]);
	}
	free(mx), free(av), free(dy), free(gm), free(ga), free(rm), free(ra);
}

static void t_window_pool(void)
{
	for (int t = 0; t < 300; t++) {
		struct wgeo g = wgeo_random(1);
		uint32_t nin = g.C * g.wh * g.W;
		float *x = xalloc(nin * 4);

		win_fill(x, nin);
		for (uint32_t i = 0; t % 3 == 0 && i < nin; i++)	/* ties and NaN */
			x[i] = i % 7 == 3 ? NAN : (float)(rndn(3));
		t_window_pool_case(g, x);
		free(x);
	}
	/* MaxPoolGrad with in_grad a sub-range of the window's rows (goff) */
	struct wgeo g = { 2, 1, 5, 4, 2, 2, 1, 1, 1, 1, 0, 0, 4, 0, 0, 12 };
	float x[40], dy[24], dx[20], ref[20] = { 0 };
	uint32_t p[8];

	win_fill(x, 40);
	win_fill(dy, 24);
	wgeo_params(&g, p);
	struct ipue_field f[3] = { fld(x, 40, IPU_DTYPE_F32), fld(dy, 24, IPU_DTYPE_F32), fld(dx, 20, IPU_DTYPE_F32) };

	for (uint32_t c = 0; c < 2; c++)
		for (uint32_t q = 0; q < 12; q++) {
			long b = max_ref(&g, x, c, q) - (long)c * 20;

			if (b >= 5 && b < 15)	/* rows 1 and 2 of the window */
				ref[c * 10 + b - 5] += dy[c * 12 + q];
		}
	if (!run_ok(IPUE_CODELET_MAX_POOL_GRAD, f, 3, p, 8))
		for (int i = 0; i < 20; i++)
			EXPECT(ulp_diff_f32(dx[i], ref[i]) == 0, "maxpoolgrad goff [%d] %a want %a", i, dx[i], ref[i]);
}

static void t_negative_window(char *buf)
{
	float *a = (float *)buf, *b = a + 256;
	struct wgeo g = { 1, 0, 4, 4, 2, 2, 1, 1, 1, 1, 0, 0, 3, 0, 0, 6 };
	uint32_t p[8];
	struct ipue_field ok[2] = { fld(a, 16, IPU_DTYPE_F32), fld(b, 24, IPU_DTYPE_F32) };
	struct ipue_field f[3];

	wgeo_params(&g, p);
	EXPECT(!run_ok(IPUE_CODELET_IM2COL, ok, 2, p, 8), "the valid binding");
	f[0] = ok[0], f[1] = fld(b, 23, IPU_DTYPE_F32);
	run_bad(IPUE_CODELET_IM2COL, f, 2, p, 8, "col not a multiple of C*KH*KW");
	f[0] = fld(a, 15, IPU_DTYPE_F32), f[1] = ok[1];
	run_bad(IPUE_CODELET_IM2COL, f, 2, p, 8, "in not C*wh*W");
	f[0] = fld(a, 16, IPU_DTYPE_F16), f[1] = ok[1];
	run_bad(IPUE_CODELET_IM2COL, f, 2, p, 8, "in and col dtypes differ");
	f[0] = ok[0], f[1] = fld(a + 8, 24, IPU_DTYPE_F32);
	run_bad(IPUE_CODELET_IM2COL, f, 2, p, 8, "col overlaps in");
	for (int k = 0; k < 5; k++) {	/* zero C, W, KH, stride, dilation */
		uint32_t q[8];

		memcpy(q, p, sizeof(q));
		q[k] &= 0xffff0000u;
		run_bad(IPUE_CODELET_IM2COL, ok, 2, q, 8, "a zero extent");
	}
	p[0] |= 1u << 16;
	run_bad(IPUE_CODELET_IM2COL, ok, 2, p, 8, "goff on Im2Col");
	run_bad(IPUE_CODELET_MAX_POOL, ok, 2, p, 8, "goff on MaxPool");
	p[0] &= 0xffff;
	f[0] = fld(a, 24, IPU_DTYPE_F32), f[1] = fld(b, 16, IPU_DTYPE_F16);
	run_bad(IPUE_CODELET_COL2IM, f, 2, p, 8, "col2im f16 out");
	f[0] = ok[0], f[1] = fld(b, 6, IPU_DTYPE_F16);
	run_bad(IPUE_CODELET_MAX_POOL, f, 2, p, 8, "maxpool f16 out");
	f[0] = fld(b, 6, IPU_DTYPE_F32), f[1] = fld(b + 2, 16, IPU_DTYPE_F32);
	run_bad(IPUE_CODELET_AVG_POOL_GRAD, f, 2, p, 8, "in_grad overlaps out_grad");
	p[0] |= 3u << 16;	/* in_grad rows 3..4 of a 4-row window */
	f[0] = ok[0], f[1] = fld(b, 6, IPU_DTYPE_F32), f[2] = fld(b + 8, 8, IPU_DTYPE_F32);
	run_bad(IPUE_CODELET_MAX_POOL_GRAD, f, 3, p, 8, "in_grad outside the window");
	p[0] &= 0xffff;
	p[7] = UINT32_MAX - 2;
	run_bad(IPUE_CODELET_IM2COL, ok, 2, p, 8, "positions past 32 bits");
}

static void t_window_cycles(void)
{
	static float a[4];
	uint32_t p[8];
	struct wgeo g = { 2, 0, 10, 5, 3, 3, 1, 1, 1, 1, 1, 1, 10, 0, 0, 20 };
	struct ipue_field im[2] = { fld(a, 100, IPU_DTYPE_F32), fld(a, 360, IPU_DTYPE_F32) };
	struct ipue_field pl[2] = { fld(a, 100, IPU_DTYPE_F32), fld(a, 40, IPU_DTYPE_F32) };
	struct ipue_field mg[3] = { pl[0], pl[1], fld(a, 100, IPU_DTYPE_F32) };
	struct ipue_field ag[2] = { pl[1], fld(a, 100, IPU_DTYPE_F32) };

	wgeo_params(&g, p);
	EXPECT(ipue_codelet_find(IPUE_CODELET_IM2COL)->cycles(im, p) == 50 + 180, "im2col cycles");
	im[1].dtype = IPU_DTYPE_F16;
	EXPECT(ipue_codelet_find(IPUE_CODELET_IM2COL)->cycles(im, p) == 50 + 90, "im2col f16 cycles");
	struct ipue_field c2[2] = { fld(a, 360, IPU_DTYPE_F32), fld(a, 100, IPU_DTYPE_F32) };

	EXPECT(ipue_codelet_find(IPUE_CODELET_COL2IM)->cycles(c2, p) == 50 + 50 + 360, "col2im cycles");
	EXPECT(ipue_codelet_find(IPUE_CODELET_MAX_POOL)->cycles(pl, p) == 50 + 180, "maxpool cycles");
	EXPECT(ipue_codelet_find(IPUE_CODELET_AVG_POOL)->cycles(pl, p) == 50 + 180 + 160, "avgpool cycles");
	EXPECT(ipue_codelet_find(IPUE_CODELET_MAX_POOL_GRAD)->cycles(mg, p) == 50 + 50 + 180 + 40, "maxgrad cycles");
	EXPECT(ipue_codelet_find(IPUE_CODELET_AVG_POOL_GRAD)->cycles(ag, p) == 50 + 50 + 160 + 360, "avggrad cycles");
}
