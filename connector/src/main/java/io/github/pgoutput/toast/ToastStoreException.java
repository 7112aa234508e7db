package io.github.pgoutput.toast;

/** The unchanged-TOAST store cannot be opened, read or written; the message names its directory and the cause. */
public final class ToastStoreException extends RuntimeException {

    public ToastStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
