package io.github.pgoutput.toast;

/** {@code unchanged.toast.resolution}: how an UPDATE's unchanged TOAST values get their values back. */
public enum UnchangedToastResolution {
    /** The placeholder ({@code unavailable.value.placeholder}), as Debezium without post processors. */
    NONE,
    /** A batched reselect, accepted only where proven ({@link ReselectBatch}); no disk on the worker. */
    RESELECT,
    /** The store of the last large values ({@link ToastStore}), with the reselect for what it does not hold. */
    STORE
}
