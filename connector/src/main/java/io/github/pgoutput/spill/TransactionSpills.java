package io.github.pgoutput.spill;

import java.lang.reflect.InvocationTargetException;
import java.util.Map;
import java.util.TreeMap;

/** Chooses and opens the spill backend named by {@code spill.backend}. */
public final class TransactionSpills {

    private TransactionSpills() {
    }

    /** The backends built into the connector, by their {@code spill.backend} name. */
    static Map<String, TransactionSpillFactory> builtIn() {
        Map<String, TransactionSpillFactory> backends = new TreeMap<>();
        backends.put(SpillSettings.DISK_BACKEND, DiskSpill.factory());
        backends.put(SpillSettings.DATABASE_BACKEND, DatabaseSpill.factory());
        return backends;
    }

    /**
     * Opens the backend {@code context.settings().backend()}: a built-in name, or the class name of a
     * {@link TransactionSpillFactory} with a public no-argument constructor.
     *
     * @throws SpillException when the name is neither, or the backend cannot be opened
     */
    public static TransactionSpill open(SpillContext context) {
        return factory(context.settings().backend()).open(context);
    }

    static TransactionSpillFactory factory(String backend) {
        TransactionSpillFactory builtIn = builtIn().get(backend);
        if (builtIn != null) {
            return builtIn;
        }
        // Loaded without initialising: a class named by mistake (or on purpose) must not get its static
        // initialiser run before we know it is a backend at all.
        Class<?> type;
        try {
            type = Class.forName(backend, false, TransactionSpills.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new SpillException("spill.backend '" + backend + "' is neither a built-in backend " + builtIn().keySet()
                    + " nor a loadable class on the plugin's class path (" + e + ")", e);
        }
        if (!TransactionSpillFactory.class.isAssignableFrom(type)) {
            throw new SpillException("spill.backend class " + backend + " does not implement "
                    + TransactionSpillFactory.class.getName() + "; name a built-in backend " + builtIn().keySet()
                    + " or a class implementing that interface");
        }
        try {
            return type.asSubclass(TransactionSpillFactory.class).getConstructor().newInstance();
        } catch (NoSuchMethodException | InstantiationException | IllegalAccessException e) {
            throw new SpillException("spill.backend class " + backend + " cannot be created with a public no-argument constructor ("
                    + e + ")", e);
        } catch (InvocationTargetException e) {
            throw new SpillException("spill.backend class " + backend + " failed in its constructor (" + e.getCause() + ")",
                    e.getCause());
        } catch (LinkageError e) {
            // ExceptionInInitializerError the first time, NoClassDefFoundError on every later attempt.
            Throwable cause = e instanceof ExceptionInInitializerError && e.getCause() != null ? e.getCause() : e;
            throw new SpillException("spill.backend class " + backend + " cannot be initialised (" + cause + ")", cause);
        }
    }

    /**
     * Creates (0700) or checks a directory under the rules {@code spill.directory} is held to (owned by the worker's
     * user, writable by no other, not a link), for other files whose content the task trusts on reading.
     *
     * @throws SpillException naming the directory, what is wrong with it and how to fix it
     */
    public static java.nio.file.Path vettedDirectory(java.nio.file.Path directory, String slotName) {
        return SpillDirectory.open(directory, slotName);
    }
}
