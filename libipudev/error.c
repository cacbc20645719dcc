// SPDX-License-Identifier: MIT
/*
 * libipudev: error reporting, version, model and state names.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "ipu_engine.h"
#include "ipu/ipu_models.h"

void ipu__strlcpy(char *dst, const char *src, size_t size)
{
	size_t n;

	if (!size)
		return;
	if (!src)
		src = "";
	n = strnlen(src, size - 1);
	memcpy(dst, src, n);
	dst[n] = '\0';
}

int ipu__verr(struct ipu_error *err, int code, const char *fmt, va_list ap)
{
	if (err) {
		err->code = code;
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	}
	return code;
}

int ipu__err(struct ipu_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ipu__verr(err, code, fmt, ap);
	va_end(ap);
	return code;
}

int ipu__err_sys(struct ipu_error *err, int code, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	if (!err)
		return code;
	va_start(ap, fmt);
	ipu__verr(err, code, fmt, ap);
	va_end(ap);
	n = strlen(err->msg);
	if (n < sizeof(err->msg) - 1)
		snprintf(err->msg + n, sizeof(err->msg) - n, ": %s",
			 ipu_strerror(code));
	return code;
}

IPU_API void ipu_error_clear(struct ipu_error *err)
{
	if (err) {
		err->code = 0;
		err->msg[0] = '\0';
	}
}

IPU_API const char *ipu_strerror(int code)
{
	const char *s;

	if (code < 0)
		code = -code;
	if (code == 0)
		return "Success";
	/* strerrordesc_np: static, untranslated, thread-safe (glibc 2.32) */
	s = strerrordesc_np(code);
	return s ? s : "Unknown error";
}

/* docs/libipudev.md lists this table; keep the two the same. */
static const struct {
	int status;	/* IPUE_* */
	int err;	/* negative errno */
} engine_errnos[] = {
	{ IPUE_OK, 0 },
	{ IPUE_EINVAL, -EINVAL },
	{ IPUE_ENOMEM, -ENOMEM },
	{ IPUE_EFORMAT, -EINVAL },
	{ IPUE_ENOGRAPH, -ENOENT },
	{ IPUE_ERANGE, -ERANGE },
	{ IPUE_EACCES, -EACCES },
	{ IPUE_ESTREAM, -EPIPE },
	{ IPUE_EABORT, -ECONNABORTED },
	{ IPUE_ECANCELED, -ECANCELED },
	{ IPUE_ESTEPLIMIT, -ELOOP },
	{ IPUE_EMODEL, -EINVAL },
	{ IPUE_EBUSY, -EBUSY },
	{ IPUE_EUNWRITTEN, -ENODATA },
	{ IPUE_EMEMPLAN, -EINVAL },
	{ IPUE_EMEMACCESS, -EFAULT },
	{ IPUE_ELINK, -ENOLINK },
	{ IPUE_ESYNC, -ETIMEDOUT },
};

int ipu__engine_errno(int status)
{
	for (size_t i = 0; i < IPU__ARRAY_SIZE(engine_errnos); i++)
		if (engine_errnos[i].status == status)
			return engine_errnos[i].err;
	return -EIO;	/* a status newer than this library: the device failed */
}

int ipu__unwritten_err(struct ipu_error *err, const char *what, const char *tensor)
{
	return ipu__err(err, ipu__engine_errno(IPUE_EUNWRITTEN),
			"%s: reads tensor '%s', which was never written (write it with "
			"ipu_tensor_write(), feed it from a stream, give it initial data, or build "
			"the graph with ipu_graph_set_zero_init())", what, tensor);
}

IPU_API const char *ipu_version(void)
{
	return IPUDEV_VERSION_STRING;
}

IPU_API const char *ipu_model_name(uint32_t model)
{
	const struct ipu_model *m = ipu_model_by_id(model);

	return m ? m->name : "unknown";
}

IPU_API const char *ipu_model_arch(uint32_t model)
{
	const struct ipu_model *m = ipu_model_by_id(model);

	return m ? m->arch : "unknown";
}

IPU_API int ipu_model_from_name(const char *name, uint32_t *model)
{
	const struct ipu_model *m = ipu_model_by_name(name);

	if (!m || !model)
		return -EINVAL;
	*model = m->id;
	return 0;
}

static const char *const state_names[] = {
	[IPU_STATE_INITIALIZING] = "initializing",
	[IPU_STATE_READY] = "ready",
	[IPU_STATE_RESETTING] = "resetting",
	[IPU_STATE_FAILED] = "failed",
};

IPU_API const char *ipu_state_name(int state)
{
	if (state >= 0 && (size_t)state < IPU__ARRAY_SIZE(state_names))
		return state_names[state];
	return "unknown";
}

int ipu__word_index(const char *const *words, size_t count, const char *name)
{
	size_t n;

	if (!name)
		return -1;
	n = strlen(name);
	while (n && (name[n - 1] == '\n' || name[n - 1] == ' ' ||
		     name[n - 1] == '\t'))
		n--;
	for (size_t i = 0; i < count; i++)
		if (words[i] && strlen(words[i]) == n &&
		    !strncmp(words[i], name, n))
			return (int)i;
	return -1;
}

IPU_API int ipu_state_from_name(const char *name)
{
	int i = ipu__word_index(state_names, IPU__ARRAY_SIZE(state_names), name);

	return i < 0 ? IPU_STATE_UNKNOWN : i;
}
