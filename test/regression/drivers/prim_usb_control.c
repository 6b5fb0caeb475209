// RUN: %crace --driver --verify --engine=lockset %s -- -I %S/Inputs
// usb_control_msg: an IN transfer (USB_DIR_IN) writes the data buffer, an
// OUT transfer reads it; the buffer shared by the two entry points races
// unless a lock protects it.
// RUN: %not %crace --driver --engine=lockset %s -- -I %S/Inputs | %FileCheck --check-prefix=KNOWN %s
// KNOWN: crace: verdict: possible-race
// KNOWN-NOT: unknown external function
// expected-verdict: possible-race
#include "subsys.h"
static struct usb_device *udev;
static unsigned char buf[8], locked_buf[8];
static struct mutex lock;
static ssize_t f_read(struct file *f, char __user *u, size_t n, loff_t *p) {
  usb_control_msg(udev, 0, 1, USB_DIR_IN, 0, 0, buf, 8, 100); // expected-race
  mutex_lock(&lock);
  usb_control_msg(udev, 0, 1, USB_DIR_IN, 0, 0, locked_buf, 8, 100);
  mutex_unlock(&lock);
  return 0;
}
static ssize_t f_write(struct file *f, const char __user *u, size_t n,
                       loff_t *p) {
  mutex_lock(&lock);
  usb_control_msg(udev, 0, 2, 0, 0, 0, locked_buf, 8, 100);
  mutex_unlock(&lock);
  usb_control_msg(udev, 0, 2, 0, 0, 0, buf, 8, 100); // expected-race
  return n;
}
static const struct file_operations fops = {.read = f_read, .write = f_write};
