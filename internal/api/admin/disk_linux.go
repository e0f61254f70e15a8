package admin

import "syscall"

// diskUsage reads the file system that holds dir; nil when it cannot.
func diskUsage(dir string) *diskJSON {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return nil
	}
	bs := uint64(st.Bsize)
	total, free := st.Blocks*bs, st.Bavail*bs
	return &diskJSON{Path: dir, TotalBytes: total, FreeBytes: free, UsedBytes: total - st.Bfree*bs}
}
