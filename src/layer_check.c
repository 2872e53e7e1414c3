/*
 * The entry point of the layer-check executables (src/meson.build): each
 * links one layer's library whole, every object whether used or not, with
 * only the layers below it. A call into a layer above or beside fails to
 * link, with the caller's file and function in the linker's message.
 */
int main(void);

int
main(void)
{
	return 0;
}
