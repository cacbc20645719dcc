# QEMU device set for the IPU stack's VM (configure --with-devices-x86_64=ipu-vm):
# a q35 machine with PCIe root ports, intel-iommu, virtio 9p, serial, nvme and
# the IPU card, nothing else.
CONFIG_PCI_DEVICES=n
CONFIG_Q35=y
CONFIG_PCIE_PORT=y
CONFIG_VTD=y
CONFIG_VIRTIO_PCI=y
CONFIG_VIRTIO_9P=y
CONFIG_VIRTIO_SERIAL=y
CONFIG_VIRTIO_RNG=y
CONFIG_SERIAL_ISA=y
CONFIG_NVME_PCI=y
CONFIG_IPU_PCI=y
