/*
 * heap.h — the malloc heap policy of a process whose main job is a scan
 * (see fl_scan_tune_heap in faultline.h).
 */
#ifndef FL_HEAP_H
#define FL_HEAP_H

/* On a scan thread: when the process took the scan heap policy, the next
 * tens of MB this thread's malloc heap hands out come in transparent huge
 * pages; otherwise nothing. */
void fl_heap_thread_huge(void);

#endif
