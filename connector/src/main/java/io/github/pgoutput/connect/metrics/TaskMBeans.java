package io.github.pgoutput.connect.metrics;

import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The task's MBeans on the platform MBean server, named {@code io.github.pgoutput:type=<type>,connector=<name>,task=<n>}.
 * A task restarted in the same worker finds its predecessor's MBean still registered when that one did not stop
 * cleanly, so registration replaces it. Metrics are never worth failing a task: a registration that fails is logged.
 */
final class TaskMBeans {

    private static final Logger log = LoggerFactory.getLogger(TaskMBeans.class);
    static final String DOMAIN = "io.github.pgoutput";

    private TaskMBeans() {
    }

    /** @throws IllegalArgumentException when the connector name gives no valid object name (it is quoted, so rarely) */
    static ObjectName name(String type, String connector, int task) {
        try {
            return new ObjectName(DOMAIN + ":type=" + type + ",connector=" + ObjectName.quote(connector) + ",task=" + task);
        } catch (JMException e) {
            throw new IllegalArgumentException("connector name '" + connector + "' gives no valid JMX object name: " + e.getMessage(), e);
        }
    }

    /** Registers {@code mbean} as {@code name}, replacing a leftover; false (and a WARN) when that fails. */
    static boolean register(Object mbean, ObjectName name) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            if (server.isRegistered(name)) {
                server.unregisterMBean(name);
            }
            server.registerMBean(mbean, name);
            return true;
        } catch (JMException e) {
            log.warn("Metrics MBean {} not registered: {}", name, e.getMessage());
            return false;
        }
    }

    /** Unregisters {@code name} when it is registered (stop may run twice, or after a failed registration). */
    static void unregister(ObjectName name) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            if (server.isRegistered(name)) {
                server.unregisterMBean(name);
            }
        } catch (JMException e) {
            log.warn("Metrics MBean {} not unregistered: {}", name, e.getMessage());
        }
    }
}
