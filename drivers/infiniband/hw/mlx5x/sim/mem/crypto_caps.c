// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The crypto part of the profile, as QUERY_HCA_CAP reports it and
 * libmlx5 reads it for mlx5dv_query_device(3)'s crypto_caps:
 *
 *   cmd_hca_cap   crypto, aes_xts_single_block_le_tweak,
 *                 aes_xts_multi_block_be_tweak, general_obj_types bits
 *                 of ENCRYPTION_KEY (0xc) and CRYPTO_LOGIN (0x1f)
 *   crypto page   (type 0x1a) wrapped_crypto_operational,
 *                 wrapped_import_method, log_max_num_deks, the numbers of
 *                 credentials and import KEKs, failed_selftests (0)
 *
 * Which of the three modes (enum sim_crypto_mode) the device is in lives
 * in those bits themselves, so what is reported is what the commands
 * enforce.  The default is NONE (a ConnectX-6 Dx without crypto); debugfs
 * fw/crypto switches it ("none", "plaintext", "wrapped") for the commands
 * that follow (a context reads the caps when it opens), while no DEK or
 * crypto login exists (EBUSY).
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/uaccess.h>
#include "crypto.h"
#include "../core/general.h"

/**
 * sim_crypto_cap() - a field of the crypto capability page
 * @sim: the model
 * @off: its bit offset (SIM_CRC_*_OFF)
 * @bits: its width
 *
 * Return: its value.
 */
u32 sim_crypto_cap(struct mlx5x_sim *sim, size_t off, size_t bits)
{
	return prm_get_bits(sim->caps[SIM_CAP_CRYPTO_TYPE], off, bits);
}

/**
 * sim_crypto_caps_fill() - the crypto capability page's fixed limits
 * @page: the page (type 0x1a)
 *
 * The mode bits are sim_crypto_set_mode()'s.
 */
void sim_crypto_caps_fill(void *page)
{
	prm_set_bits(page, SIM_CRC_LOG_DEK_MAX_ALLOC_OFF, 5, 0);
	prm_set_bits(page, SIM_CRC_LOG_MAX_DEKS_OFF, 5,
		     SIM_CRYPTO_LOG_MAX_DEKS);
	prm_set_bits(page, SIM_CRC_LOG_MAX_IMPORT_KEKS_OFF, 5,
		     SIM_CRYPTO_LOG_MAX_IMPORT_KEKS);
	prm_set_bits(page, SIM_CRC_LOG_MAX_CREDS_OFF, 5,
		     SIM_CRYPTO_LOG_MAX_CREDS);
	prm_set_bits(page, SIM_CRC_FAILED_SELFTESTS_OFF, 16, 0);
	prm_set_bits(page, SIM_CRC_NUM_NV_IMPORT_KEKS_OFF, 8,
		     SIM_CRYPTO_NV_IMPORT_KEKS);
	prm_set_bits(page, SIM_CRC_NUM_NV_CREDENTIALS_OFF, 8,
		     SIM_CRYPTO_NV_CREDENTIALS);
}

/* general_obj_types bit @type (< 64) of the cmd_hca_cap page */
static void sim_crypto_obj_type(void *cap, unsigned int type, bool on)
{
	size_t off = PRM_BIT_OFF(cmd_hca_cap, general_obj_types) + 63 - type;

	prm_set_bits(cap, off, 1, on);
}

/**
 * sim_crypto_set_mode() - what crypto the profile offers
 * @sim: the model; its lock held, or not yet published
 * @mode: none, plaintext or wrapped keys
 */
void sim_crypto_set_mode(struct mlx5x_sim *sim, enum sim_crypto_mode mode)
{
	void *cap = sim->caps[0];
	void *page = sim->caps[SIM_CAP_CRYPTO_TYPE];
	bool on = mode != SIM_CRYPTO_NONE;
	bool wrapped = mode == SIM_CRYPTO_WRAPPED;

	prm_set_bits(cap, SIM_CAP_CRYPTO_OFF, 1, on);
	prm_set_bits(cap, SIM_CAP_AES_XTS_SINGLE_LE_OFF, 1, on);
	prm_set_bits(cap, SIM_CAP_AES_XTS_MULTI_BE_OFF, 1, on);
	sim_crypto_obj_type(cap, SIM_OBJ_TYPE_DEK, on);
	sim_crypto_obj_type(cap, SIM_OBJ_TYPE_CRYPTO_LOGIN, wrapped);
	prm_set_bits(page, SIM_CRC_WRAPPED_OPERATIONAL_OFF, 1, wrapped);
	prm_set_bits(page, SIM_CRC_WRAPPED_IMPORT_OFF, 8,
		     wrapped ? SIM_CRYPTO_IMPORT_AES : 0);
}

/**
 * sim_crypto_mode() - what crypto the profile offers now
 * @sim: the model
 *
 * Return: the mode the capability bits say.
 */
enum sim_crypto_mode sim_crypto_mode(struct mlx5x_sim *sim)
{
	if (!prm_get_bits(sim->caps[0], SIM_CAP_CRYPTO_OFF, 1))
		return SIM_CRYPTO_NONE;
	if (sim_crypto_cap(sim, SIM_CRC_WRAPPED_OPERATIONAL_OFF, 1))
		return SIM_CRYPTO_WRAPPED;
	return SIM_CRYPTO_PLAINTEXT;
}

static const char *const sim_crypto_mode_names[] = {
	[SIM_CRYPTO_NONE] = "none",
	[SIM_CRYPTO_PLAINTEXT] = "plaintext",
	[SIM_CRYPTO_WRAPPED] = "wrapped",
};

static ssize_t sim_crypto_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct mlx5x_sim *sim = file->private_data;
	char buf[16];
	int len;

	mutex_lock(&sim->lock);
	len = scnprintf(buf, sizeof(buf), "%s\n",
			sim_crypto_mode_names[sim_crypto_mode(sim)]);
	mutex_unlock(&sim->lock);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t sim_crypto_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct mlx5x_sim *sim = file->private_data;
	char buf[16] = {};
	int mode;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	mode = sysfs_match_string(sim_crypto_mode_names, buf);
	if (mode < 0)
		return mode;
	mutex_lock(&sim->lock);
	if (sim_crypto_objects(sim)) {
		mutex_unlock(&sim->lock);
		return -EBUSY;
	}
	sim_crypto_set_mode(sim, mode);
	mutex_unlock(&sim->lock);
	return count;
}

static const struct file_operations sim_crypto_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = sim_crypto_read,
	.write = sim_crypto_write,
	.llseek = noop_llseek,
};

/**
 * sim_crypto_debugfs_init() - publish fw/crypto
 * @sim: the model, whose debugfs directory exists
 */
void sim_crypto_debugfs_init(struct mlx5x_sim *sim)
{
	debugfs_create_file("crypto", 0600, sim->dbg, sim, &sim_crypto_fops);
}
